import type { SaleState } from '#shared/sales';
import type { Db } from './database';

export { OPEN_SALE_STATES, SALE_STATES, type SaleState } from '#shared/sales';

export interface SaleRow {
  readonly id: number;
  readonly amountKobo: number;
  /** An outage sale's exact amount asked (amount plus its kobo tag); null for every other sale. */
  readonly amountDueKobo: number | null;
  readonly note: string | null;
  readonly cashier: string | null;
  readonly tillId: string | null;
  readonly state: SaleState;
  readonly reason: string | null;
  readonly reference: string;
  readonly accountId: number | null;
  readonly expiresAt: number | null;
  readonly paidSessionId: string | null;
  readonly paidAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface SaleEventRow {
  readonly id: number;
  readonly saleId: number;
  readonly at: number;
  readonly fromState: SaleState | null;
  readonly toState: SaleState;
  readonly cause: string;
  readonly detail: string | null;
}

const SALE_COLUMNS = `id, amount_kobo AS amountKobo, amount_due_kobo AS amountDueKobo, note, cashier, till_id AS tillId, state, reason,
  reference, account_id AS accountId, expires_at AS expiresAt, paid_session_id AS paidSessionId,
  paid_at AS paidAt, created_at AS createdAt, updated_at AS updatedAt`;

export interface NewSale {
  readonly accountId?: number | null;
  readonly amountKobo: number;
  readonly note: string | null;
  readonly cashier: string | null;
  readonly tillId: string | null;
  /** The counter paired to this hub that made the sale, or null (this till's own). */
  readonly pairedCounterId?: number | null;
  readonly reference: string;
}

export function insertSale(db: Db, sale: NewSale, now: number, cause: string): SaleRow {
  return db.transaction(() =>
    insertSaleRow(db, sale, now, { state: 'creating', due: null, cause }),
  )();
}

/** The sale's row and its first event; the caller holds the transaction. */
function insertSaleRow(
  db: Db,
  sale: NewSale,
  now: number,
  first: {
    readonly state: 'creating' | 'unconfirmed';
    readonly due: number | null;
    readonly cause: string;
  },
): SaleRow {
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO sales (account_id, amount_kobo, amount_due_kobo, note, cashier, till_id,
         paired_counter_id, state, reference, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      sale.accountId ?? null,
      sale.amountKobo,
      first.due,
      sale.note,
      sale.cashier,
      sale.tillId,
      sale.pairedCounterId ?? null,
      first.state,
      sale.reference,
      now,
      now,
    );
  const id = Number(lastInsertRowid);
  db.prepare(
    `INSERT INTO sale_events (sale_id, at, from_state, to_state, cause) VALUES (?, ?, NULL, ?, ?)`,
  ).run(id, now, first.state, first.cause);
  return getSaleOrThrow(db, id);
}

export function getSale(db: Db, id: number): SaleRow | undefined {
  return db.prepare(`SELECT ${SALE_COLUMNS} FROM sales WHERE id = ?`).get(id) as
    SaleRow | undefined;
}

export function getSaleOrThrow(db: Db, id: number): SaleRow {
  const sale = getSale(db, id);
  if (!sale) throw new Error(`Sale ${id} does not exist`);
  return sale;
}

export const SALE_BY_REFERENCE_SQL = `SELECT ${SALE_COLUMNS} FROM sales WHERE reference = ?`;

export function getSaleByReference(db: Db, reference: string): SaleRow | undefined {
  return db.prepare(SALE_BY_REFERENCE_SQL).get(reference) as SaleRow | undefined;
}

/** Through virtual_accounts_number, then the sales' reference index: no scan of either. */
export const LATEST_SALE_BY_ACCOUNT_NUMBER = `SELECT ${SALE_COLUMNS} FROM sales
  WHERE reference IN (
    SELECT reference FROM virtual_accounts WHERE account_number = ? AND purpose = 'sale')
  ORDER BY id DESC LIMIT 1`;

/** The newest sale made on a virtual account number (a callback may name only the number). */
export function getLatestSaleByAccountNumber(db: Db, accountNumber: string): SaleRow | undefined {
  return db.prepare(LATEST_SALE_BY_ACCOUNT_NUMBER).get(accountNumber) as SaleRow | undefined;
}

/** Whether the till has made any sale at all (its first start asks the shop's name before one). */
export function hasAnySale(db: Db): boolean {
  return db.prepare('SELECT 1 FROM sales LIMIT 1').get() !== undefined;
}

export function listOpenSales(db: Db): SaleRow[] {
  return db
    .prepare(
      `SELECT ${SALE_COLUMNS} FROM sales
       WHERE state IN ('creating', 'awaiting_payment', 'confirming', 'wrong_amount') ORDER BY id`,
    )
    .all() as SaleRow[];
}

/**
 * Two halves, each on its partial index (sales_open, sales_late_watch): one query with OR reads
 * the whole table. INDEXED BY because, for the merge in id order, the planner would rather scan
 * every sale the till ever made (0.8 s on a ten-year shop) than sort a few. Parameter: the
 * oldest expiry still watched.
 */
export const WATCHED_SALES_SQL = `SELECT ${SALE_COLUMNS} FROM sales
  WHERE state IN ('creating', 'awaiting_payment', 'confirming', 'wrong_amount')
  UNION ALL
  SELECT ${SALE_COLUMNS} FROM sales INDEXED BY sales_late_watch
  WHERE state IN ('cancelled', 'expired') AND expires_at > ?
  ORDER BY id`;

/**
 * Sales the engine must still watch after a restart: open ones, and those cancelled or expired
 * within the grace period (their account may still take money: a late payment must be flagged,
 * never lost).
 */
export function listWatchedSales(db: Db, now: number, lateGraceMs: number): SaleRow[] {
  return db.prepare(WATCHED_SALES_SQL).all(now - lateGraceMs) as SaleRow[];
}

export const SALES_CREATED_BETWEEN_SQL = `SELECT ${SALE_COLUMNS} FROM sales
  WHERE created_at >= ? AND created_at < ?
  ORDER BY created_at DESC LIMIT ?`;

export function listSalesCreatedBetween(db: Db, from: number, to: number, limit = 500): SaleRow[] {
  return db.prepare(SALES_CREATED_BETWEEN_SQL).all(from, to, limit) as SaleRow[];
}

export interface SaleChange {
  readonly state: SaleState;
  readonly cause: string;
  readonly reason?: string | null;
  readonly detail?: unknown;
  readonly fields?: {
    readonly reference?: string;
    readonly accountId?: number;
    readonly expiresAt?: number;
    readonly paidSessionId?: string;
    readonly paidAt?: number;
  };
}

/**
 * Moves a sale to a new state and writes the history row in the same transaction. `expect`
 * guards against a race: the change applies only while the sale is still in one of those states.
 * Returns the updated row, or undefined when the guard did not hold.
 */
export function transitionSale(
  db: Db,
  id: number,
  change: SaleChange,
  now: number,
  expect?: readonly SaleState[],
): SaleRow | undefined {
  return db.transaction(() => {
    const current = getSale(db, id);
    if (!current) throw new Error(`Sale ${id} does not exist`);
    if (expect && !expect.includes(current.state)) return undefined;
    const f = change.fields ?? {};
    db.prepare(
      `UPDATE sales SET state = ?, reason = ?, updated_at = ?,
         reference = COALESCE(?, reference), account_id = COALESCE(?, account_id),
         expires_at = COALESCE(?, expires_at), paid_session_id = COALESCE(?, paid_session_id),
         paid_at = COALESCE(?, paid_at)
       WHERE id = ?`,
    ).run(
      change.state,
      change.reason === undefined ? current.reason : change.reason,
      now,
      f.reference ?? null,
      f.accountId ?? null,
      f.expiresAt ?? null,
      f.paidSessionId ?? null,
      f.paidAt ?? null,
      id,
    );
    db.prepare(
      `INSERT INTO sale_events (sale_id, at, from_state, to_state, cause, detail) VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      now,
      current.state,
      change.state,
      change.cause,
      change.detail === undefined ? null : JSON.stringify(change.detail),
    );
    return getSaleOrThrow(db, id);
  })();
}

/**
 * The state a paid_late sale was in when its payment came: the first change to paid_late says
 * (a later correction of which transfer paid it goes from paid_late to paid_late). Null when
 * the sale never became paid_late.
 */
export function paidLateFrom(db: Db, saleId: number): SaleState | null {
  const row = db
    .prepare(
      `SELECT from_state AS fromState FROM sale_events
       WHERE sale_id = ? AND to_state = 'paid_late' ORDER BY id LIMIT 1`,
    )
    .get(saleId) as { fromState: SaleState | null } | undefined;
  return row?.fromState ?? null;
}

export function listSaleEvents(db: Db, saleId: number): SaleEventRow[] {
  return db
    .prepare(
      `SELECT id, sale_id AS saleId, at, from_state AS fromState, to_state AS toState, cause, detail
       FROM sale_events WHERE sale_id = ? ORDER BY id`,
    )
    .all(saleId) as SaleEventRow[];
}

/** An outage sale is always on the standing account. */
export interface NewOutageSale extends NewSale {
  readonly accountId: number;
}

/** Kobo tags an outage sale may carry: 1..99 (a round amount is never asked for). */
const KOBO_TAGS = 99;

/**
 * Writes an outage sale, `unconfirmed` on the outage standing account, asking for its amount
 * plus the smallest kobo tag (1..99) whose sum no other unconfirmed sale asks for: the exact
 * amount due tells open outage sales apart, and is never less than the price. One transaction,
 * so two counters taking the same amount at once get two tags. Undefined when all 99 are taken.
 */
export function insertOutageSale(db: Db, sale: NewOutageSale, now: number): SaleRow | undefined {
  return db.transaction(() => {
    const base = sale.amountKobo;
    const taken = new Set(
      (
        db
          .prepare(
            `SELECT amount_due_kobo AS due FROM sales
             WHERE state = 'unconfirmed' AND amount_due_kobo BETWEEN ? AND ?`,
          )
          .all(base + 1, base + KOBO_TAGS) as { due: number }[]
      ).map((row) => row.due),
    );
    let due: number | undefined;
    for (let tag = 1; tag <= KOBO_TAGS && due === undefined; tag += 1) {
      if (!taken.has(base + tag)) due = base + tag;
    }
    if (due === undefined) return undefined;
    return insertSaleRow(db, sale, now, { state: 'unconfirmed', due, cause: 'outage_sale' });
  })();
}

/** The unconfirmed outage sales asking for exactly this amount (on its partial index). */
export function listUnconfirmedSalesDue(db: Db, amountDueKobo: number): SaleRow[] {
  return db
    .prepare(
      `SELECT ${SALE_COLUMNS} FROM sales INDEXED BY sales_unconfirmed
       WHERE state = 'unconfirmed' AND amount_due_kobo = ? ORDER BY id`,
    )
    .all(amountDueKobo) as SaleRow[];
}

/** Every unconfirmed outage sale, oldest first. */
export function listUnconfirmedSales(db: Db): SaleRow[] {
  return db
    .prepare(
      `SELECT ${SALE_COLUMNS} FROM sales INDEXED BY sales_unconfirmed
       WHERE state = 'unconfirmed' ORDER BY id`,
    )
    .all() as SaleRow[];
}
