/**
 * What matching an outage payment to its sale reads and writes (engine/outage-matching.ts
 * decides). Each read starts from a bounded range of an index: the matching runs for every
 * payment into the outage account a 100,000-row listing sync brings.
 */
import type { Db } from './database';
import type { SaleRow } from './sales-repo';

const SALE_COLUMNS = `id, amount_kobo AS amountKobo, amount_due_kobo AS amountDueKobo, note, cashier,
  till_id AS tillId, state, reason, reference, account_id AS accountId, expires_at AS expiresAt,
  paid_session_id AS paidSessionId, paid_at AS paidAt, created_at AS createdAt,
  updated_at AS updatedAt`;

/**
 * Outage sales (any state) asking for exactly this amount, taken in [fromMs, toMs]: on the
 * sales_created index, so a day's window costs that day's sales, never the whole history.
 */
export const OUTAGE_SALES_DUE_BETWEEN_SQL = `SELECT ${SALE_COLUMNS} FROM sales
  WHERE created_at >= ? AND created_at <= ? AND amount_due_kobo = ? ORDER BY created_at, id`;

export function listOutageSalesDueBetween(
  db: Db,
  amountDueKobo: number,
  fromMs: number,
  toMs: number,
): SaleRow[] {
  return db.prepare(OUTAGE_SALES_DUE_BETWEEN_SQL).all(fromMs, toMs, amountDueKobo) as SaleRow[];
}

/**
 * Links a transfer to the outage sale it paid, once: a transfer already linked keeps its sale.
 * True when this call linked it.
 */
export function linkInflowToSale(db: Db, sessionId: string, saleId: number): boolean {
  return (
    db
      .prepare(`UPDATE inflows SET sale_id = ? WHERE session_id = ? AND sale_id IS NULL`)
      .run(saleId, sessionId).changes === 1
  );
}

/** How an outage sale of a report's range ended (from its change to paid, if any). */
export interface OutageSaleOutcomeRow {
  readonly saleId: number;
  readonly amountKobo: number;
  readonly amountDueKobo: number;
  readonly state: string;
  readonly createdAt: number;
  readonly paidAt: number | null;
  readonly paidSessionId: string | null;
  /** The cause of its change to paid ('confirmed_after_outage', 'assigned_after_outage'). */
  readonly paidCause: string | null;
  /** That change's detail (JSON: who assigned it). */
  readonly paidDetail: string | null;
}

/** Every outage sale taken in a report's range, oldest first, on the sales_created index. */
export const OUTAGE_SALES_OF_RANGE_SQL = `SELECT s.id AS saleId, s.amount_kobo AS amountKobo,
    s.amount_due_kobo AS amountDueKobo, s.state, s.created_at AS createdAt, s.paid_at AS paidAt,
    s.paid_session_id AS paidSessionId,
    (SELECT e.cause FROM sale_events e WHERE e.sale_id = s.id AND e.to_state = 'paid'
      ORDER BY e.id LIMIT 1) AS paidCause,
    (SELECT e.detail FROM sale_events e WHERE e.sale_id = s.id AND e.to_state = 'paid'
      ORDER BY e.id LIMIT 1) AS paidDetail
  FROM sales s
  WHERE s.created_at >= ? AND s.created_at < ? AND s.amount_due_kobo IS NOT NULL
  ORDER BY s.created_at, s.id LIMIT ?`;

export function outageSalesOfRange(
  db: Db,
  range: { readonly fromMs: number; readonly toMs: number },
  limit: number,
): OutageSaleOutcomeRow[] {
  return db
    .prepare(OUTAGE_SALES_OF_RANGE_SQL)
    .all(range.fromMs, range.toMs, limit) as OutageSaleOutcomeRow[];
}

/** Whether an alert was ever raised under this dedupe key (open or closed). */
export function alertWasRaised(db: Db, dedupeKey: string): boolean {
  return db.prepare(`SELECT 1 FROM alerts WHERE dedupe_key = ?`).get(dedupeKey) !== undefined;
}
