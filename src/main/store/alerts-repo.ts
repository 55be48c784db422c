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
  /** When it closed (acknowledged or closed by what resolved it); null while open. */
  readonly acknowledgedAt: number | null;
  /** What closed it ('acknowledged by Ada', 'sale paid', 'recorded: goods given'); null while open. */
  readonly closedBy: string | null;
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
  message, acknowledged_at AS acknowledgedAt, closed_by AS closedBy`;

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

/**
 * Whose sales (and so whose alerts) a read returns: every one (the owner), those recorded under
 * one cashier's name, those of one till (a paired counter), or none. The rule choosing the scope
 * for a caller is auth/ownership.ts (scopeOf); the header's count and Activity's list are the
 * same read.
 */
export type SaleScope =
  | { readonly type: 'all' }
  | { readonly type: 'cashier'; readonly name: string }
  | { readonly type: 'till'; readonly tillId: string }
  | { readonly type: 'none' };

export const EVERY_SALE: SaleScope = Object.freeze({ type: 'all' });

export const OPEN_ALERTS_SQL = `SELECT ${COLUMNS} FROM alerts
  WHERE acknowledged_at IS NULL ORDER BY id DESC`;

const SCOPED_COLUMNS = COLUMNS.split(',')
  .map((column) => `a.${column.trim()}`)
  .join(', ');

// Open alerts are few and a till's sales many: CROSS JOIN keeps the open alerts the outer loop.

/** A cashier's open alerts: those of the sales recorded under their name. */
export const CASHIER_OPEN_ALERTS_SQL = `SELECT ${SCOPED_COLUMNS} FROM alerts a
  CROSS JOIN sales s ON s.id = a.sale_id
  WHERE a.acknowledged_at IS NULL AND s.cashier = ? ORDER BY a.id DESC`;

/** A paired counter's open alerts: those of its till's sales. */
export const TILL_OPEN_ALERTS_SQL = `SELECT ${SCOPED_COLUMNS} FROM alerts a
  CROSS JOIN sales s ON s.id = a.sale_id
  WHERE a.acknowledged_at IS NULL AND s.till_id = ? ORDER BY a.id DESC`;

/** The open alerts a scope may see, newest first. */
export function listOpenAlerts(db: Db, scope: SaleScope = EVERY_SALE): AlertRow[] {
  switch (scope.type) {
    case 'all':
      return db.prepare(OPEN_ALERTS_SQL).all() as AlertRow[];
    case 'cashier':
      return db.prepare(CASHIER_OPEN_ALERTS_SQL).all(scope.name) as AlertRow[];
    case 'till':
      return db.prepare(TILL_OPEN_ALERTS_SQL).all(scope.tillId) as AlertRow[];
    case 'none':
      return [];
  }
}

/** A sale's open alerts (few: the open alerts' partial index is walked). */
export const OPEN_ALERTS_OF_SALE_SQL = `SELECT ${COLUMNS} FROM alerts
  WHERE acknowledged_at IS NULL AND sale_id = ? ORDER BY id`;

/** The open alerts about one sale (its alerts may close when it changes; a refund owed). */
export function listOpenAlertsOfSale(db: Db, saleId: number): AlertRow[] {
  return db.prepare(OPEN_ALERTS_OF_SALE_SQL).all(saleId) as AlertRow[];
}

/** The open alerts about one transfer. */
export function listOpenAlertsOfSession(db: Db, sessionId: string): AlertRow[] {
  return db
    .prepare(`SELECT ${COLUMNS} FROM alerts WHERE acknowledged_at IS NULL AND session_id = ?`)
    .all(sessionId) as AlertRow[];
}

/**
 * Closes an open alert with a record of what closed it; returns the closed alert, or undefined
 * when it was closed already.
 */
export function closeAlert(
  db: Db,
  id: number,
  closedBy: string,
  now: number,
): AlertRow | undefined {
  const changed = db
    .prepare(
      `UPDATE alerts SET acknowledged_at = ?, closed_by = ? WHERE id = ? AND acknowledged_at IS NULL`,
    )
    .run(now, closedBy.slice(0, 120), id).changes;
  return changed === 1 ? getAlert(db, id) : undefined;
}

/** A person closed it ("Acknowledge"): recorded as acknowledged, by whom when the till knows. */
export function acknowledgeAlert(
  db: Db,
  id: number,
  now: number,
  by: string | null = null,
): boolean {
  return closeAlert(db, id, by ? `acknowledged by ${by}` : 'acknowledged', now) !== undefined;
}

/** Closes the open alert raised under a dedupe key (the engine's own, when the fact it told changed). */
export function closeAlertByKey(
  db: Db,
  dedupeKey: string,
  closedBy: string,
  now: number,
): AlertRow | undefined {
  const row = db
    .prepare(`SELECT id FROM alerts WHERE dedupe_key = ? AND acknowledged_at IS NULL`)
    .get(dedupeKey) as { id: number } | undefined;
  return row ? closeAlert(db, row.id, closedBy, now) : undefined;
}
