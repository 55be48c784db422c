import type { Db } from './database';

export type InflowStatus = 'success' | 'failed' | 'pending' | 'unknown';
export type InflowSource = 'callback' | 'poll' | 'listing';

export interface InflowRow {
  readonly id: number;
  readonly sessionId: string;
  readonly externalReference: string | null;
  readonly amountKobo: number;
  readonly status: InflowStatus;
  readonly providerDate: string | null;
  readonly occurredAt: number | null;
  readonly source: InflowSource;
  readonly lastSource: InflowSource;
  readonly saleId: number | null;
  readonly accountId: number | null;
  readonly firstSeenAt: number;
  readonly updatedAt: number;
  /** When the provider said the stored status (a callback's arrival, a check, a page's fetch). */
  readonly statusObservedAt: number;
}

export interface InflowInput {
  readonly sessionId: string;
  readonly externalReference: string | null;
  readonly amountKobo: number;
  readonly status: InflowStatus;
  readonly providerDate: string | null;
  readonly occurredAt: number | null;
  readonly saleId?: number | null;
  readonly accountId?: number | null;
}

export interface InflowStatusChange {
  readonly id: number;
  readonly inflowId: number;
  readonly recordedAt: number;
  readonly observedAt: number;
  readonly fromStatus: InflowStatus;
  readonly toStatus: InflowStatus;
  readonly source: InflowSource;
}

const COLUMNS = `id, session_id AS sessionId, external_reference AS externalReference,
  amount_kobo AS amountKobo, status, provider_date AS providerDate, occurred_at AS occurredAt,
  source, last_source AS lastSource, sale_id AS saleId, account_id AS accountId,
  first_seen_at AS firstSeenAt, updated_at AS updatedAt, status_observed_at AS statusObservedAt`;

/** Keeps one change of a stored status; the caller's transaction covers it with the update. */
export function recordInflowStatusChange(db: Db, change: Omit<InflowStatusChange, 'id'>): void {
  db.prepare(
    `INSERT INTO inflow_status_history (inflow_id, recorded_at, observed_at, from_status,
       to_status, source) VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(
    change.inflowId,
    change.recordedAt,
    change.observedAt,
    change.fromStatus,
    change.toStatus,
    change.source,
  );
}

/** Every change of one inflow's status, oldest first. */
export function listInflowStatusHistory(db: Db, inflowId: number): InflowStatusChange[] {
  return db
    .prepare(
      `SELECT id, inflow_id AS inflowId, recorded_at AS recordedAt, observed_at AS observedAt,
         from_status AS fromStatus, to_status AS toStatus, source
       FROM inflow_status_history WHERE inflow_id = ? ORDER BY id`,
    )
    .all(inflowId) as InflowStatusChange[];
}

export const INFLOW_BY_SESSION_SQL = `SELECT ${COLUMNS} FROM inflows WHERE session_id = ?`;

export function getInflowBySession(db: Db, sessionId: string): InflowRow | undefined {
  return db.prepare(INFLOW_BY_SESSION_SQL).get(sessionId) as InflowRow | undefined;
}

/** Stores a transfer first met in one report (a callback, a check); returns the stored row. */
export function insertReportedInflow(
  db: Db,
  input: InflowInput,
  source: InflowSource,
  now: number,
  observedAt: number,
): InflowRow {
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO inflows (session_id, external_reference, amount_kobo, status, provider_date,
         occurred_at, source, last_source, sale_id, account_id, first_seen_at, updated_at,
         status_observed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      input.sessionId,
      input.externalReference,
      input.amountKobo,
      input.status,
      input.providerDate,
      input.occurredAt,
      source,
      source,
      input.saleId ?? null,
      input.accountId ?? null,
      now,
      now,
      observedAt,
    );
  return db
    .prepare(`SELECT ${COLUMNS} FROM inflows WHERE id = ?`)
    .get(Number(lastInsertRowid)) as InflowRow;
}

/**
 * Writes what one report said of a stored transfer: the decided status (engine/inflow-status.ts
 * decides it) and the reference, dates and links it may have lacked, never the amount.
 */
export function updateReportedInflow(
  db: Db,
  id: number,
  status: { readonly status: InflowStatus; readonly observedAt: number },
  input: InflowInput,
  source: InflowSource,
  now: number,
): void {
  db.prepare(
    `UPDATE inflows SET status = ?, status_observed_at = ?, last_source = ?, updated_at = ?,
       external_reference = COALESCE(external_reference, ?),
       provider_date = COALESCE(provider_date, ?), occurred_at = COALESCE(occurred_at, ?),
       sale_id = COALESCE(sale_id, ?), account_id = COALESCE(account_id, ?)
     WHERE id = ?`,
  ).run(
    status.status,
    status.observedAt,
    source,
    now,
    input.externalReference,
    input.providerDate,
    input.occurredAt,
    input.saleId ?? null,
    input.accountId ?? null,
    id,
  );
}

export function listInflowsForReference(db: Db, reference: string): InflowRow[] {
  return db
    .prepare(`SELECT ${COLUMNS} FROM inflows WHERE external_reference = ? ORDER BY id`)
    .all(reference) as InflowRow[];
}

/**
 * INDEXED BY: with ORDER BY id and a LIMIT the planner would walk the whole table backwards
 * from the newest id, and a quiet day (fewer rows than the limit) reads every inflow ever.
 */
export const RECENT_INFLOWS_SQL = `SELECT ${COLUMNS} FROM inflows INDEXED BY inflows_first_seen
  WHERE first_seen_at >= ? ORDER BY id DESC LIMIT ?`;

export function listRecentInflows(db: Db, since: number, limit = 200): InflowRow[] {
  return db.prepare(RECENT_INFLOWS_SQL).all(since, limit) as InflowRow[];
}
