import type { Db } from './database';

export type AlertLevel = 'info' | 'warning' | 'error';

export interface AlertRow {
  readonly id: number;
  readonly createdAt: number;
  readonly level: AlertLevel;
  readonly kind: string;
  readonly saleId: number | null;
  readonly sessionId: string | null;
  readonly message: string;
  readonly acknowledgedAt: number | null;
}

export interface NewAlert {
  readonly level: AlertLevel;
  readonly kind: string;
  readonly message: string;
  readonly saleId?: number | null;
  readonly sessionId?: string | null;
  /** Raising the same alert twice (e.g. after a restart) keeps one row. */
  readonly dedupeKey?: string;
}

const COLUMNS = `id, created_at AS createdAt, level, kind, sale_id AS saleId, session_id AS sessionId,
  message, acknowledged_at AS acknowledgedAt`;

/** Returns the new alert, or undefined when one with the same dedupe key exists already. */
export function raiseAlert(db: Db, alert: NewAlert, now: number): AlertRow | undefined {
  const result = db
    .prepare(
      `INSERT INTO alerts (created_at, level, kind, sale_id, session_id, message, dedupe_key)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .run(
      now,
      alert.level,
      alert.kind,
      alert.saleId ?? null,
      alert.sessionId ?? null,
      alert.message,
      alert.dedupeKey ?? null,
    );
  if (result.changes === 0) return undefined;
  return db
    .prepare(`SELECT ${COLUMNS} FROM alerts WHERE id = ?`)
    .get(Number(result.lastInsertRowid)) as AlertRow;
}

/** One alert, open or acknowledged. */
export function getAlert(db: Db, id: number): AlertRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM alerts WHERE id = ?`).get(id) as AlertRow | undefined;
}

export const OPEN_ALERTS_SQL = `SELECT ${COLUMNS} FROM alerts
  WHERE acknowledged_at IS NULL ORDER BY id DESC`;

export function listOpenAlerts(db: Db): AlertRow[] {
  return db.prepare(OPEN_ALERTS_SQL).all() as AlertRow[];
}

/** A sale's open alerts of one kind (few: the open alerts' partial index is walked). */
export const OPEN_ALERTS_OF_SALE_SQL = `SELECT ${COLUMNS} FROM alerts
  WHERE acknowledged_at IS NULL AND sale_id = ? AND kind = ? ORDER BY id`;

export function listOpenAlertsOfSale(db: Db, saleId: number, kind: string): AlertRow[] {
  return db.prepare(OPEN_ALERTS_OF_SALE_SQL).all(saleId, kind) as AlertRow[];
}

export function acknowledgeAlert(db: Db, id: number, now: number): boolean {
  return (
    db
      .prepare(`UPDATE alerts SET acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL`)
      .run(now, id).changes === 1
  );
}

/** Closes the open alert raised under a dedupe key (the engine's own, when the fact it told changed). */
export function acknowledgeAlertByKey(db: Db, dedupeKey: string, now: number): boolean {
  return (
    db
      .prepare(
        `UPDATE alerts SET acknowledged_at = ? WHERE dedupe_key = ? AND acknowledged_at IS NULL`,
      )
      .run(now, dedupeKey).changes === 1
  );
}
