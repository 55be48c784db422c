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

export interface UpsertResult {
  readonly row: InflowRow;
  /** A row for this session_id did not exist before. */
  readonly inserted: boolean;
  /** The stored status changed (e.g. pending -> success). */
  readonly statusChanged: boolean;
}

const COLUMNS = `id, session_id AS sessionId, external_reference AS externalReference,
  amount_kobo AS amountKobo, status, provider_date AS providerDate, occurred_at AS occurredAt,
  source, last_source AS lastSource, sale_id AS saleId, account_id AS accountId,
  first_seen_at AS firstSeenAt, updated_at AS updatedAt`;

/** A final status is never replaced by a non-final one (a late 'pending' row cannot undo 'success'). */
const STATUS_RANK: Readonly<Record<InflowStatus, number>> = {
  unknown: 0,
  pending: 1,
  failed: 2,
  success: 2,
};

export function getInflowBySession(db: Db, sessionId: string): InflowRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM inflows WHERE session_id = ?`).get(sessionId) as
    InflowRow | undefined;
}

/**
 * One row per provider transaction, keyed by session_id, whatever the number of callbacks, polls
 * and listing pages that report it. The amount of an existing row is never changed: a report that
 * disagrees is returned to the caller as a conflict instead.
 */
export function upsertInflow(
  db: Db,
  input: InflowInput,
  source: InflowSource,
  now: number,
): UpsertResult & { readonly amountConflict: boolean } {
  return db.transaction(() => {
    const existing = getInflowBySession(db, input.sessionId);
    if (!existing) {
      const { lastInsertRowid } = db
        .prepare(
          `INSERT INTO inflows (session_id, external_reference, amount_kobo, status, provider_date,
             occurred_at, source, last_source, sale_id, account_id, first_seen_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        );
      const row = db
        .prepare(`SELECT ${COLUMNS} FROM inflows WHERE id = ?`)
        .get(Number(lastInsertRowid)) as InflowRow;
      return { row, inserted: true, statusChanged: true, amountConflict: false };
    }
    const nextStatus =
      STATUS_RANK[input.status] > STATUS_RANK[existing.status] ? input.status : existing.status;
    const statusChanged = nextStatus !== existing.status;
    db.prepare(
      `UPDATE inflows SET status = ?, last_source = ?, updated_at = ?,
         external_reference = COALESCE(external_reference, ?),
         provider_date = COALESCE(provider_date, ?), occurred_at = COALESCE(occurred_at, ?),
         sale_id = COALESCE(sale_id, ?), account_id = COALESCE(account_id, ?)
       WHERE id = ?`,
    ).run(
      nextStatus,
      source,
      now,
      input.externalReference,
      input.providerDate,
      input.occurredAt,
      input.saleId ?? null,
      input.accountId ?? null,
      existing.id,
    );
    const row = getInflowBySession(db, input.sessionId) as InflowRow;
    return {
      row,
      inserted: false,
      statusChanged,
      amountConflict: existing.amountKobo !== input.amountKobo,
    };
  })();
}

export function listInflowsForReference(db: Db, reference: string): InflowRow[] {
  return db
    .prepare(`SELECT ${COLUMNS} FROM inflows WHERE external_reference = ? ORDER BY id`)
    .all(reference) as InflowRow[];
}

export function listRecentInflows(db: Db, since: number, limit = 200): InflowRow[] {
  return db
    .prepare(`SELECT ${COLUMNS} FROM inflows WHERE first_seen_at >= ? ORDER BY id DESC LIMIT ?`)
    .all(since, limit) as InflowRow[];
}
