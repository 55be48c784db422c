/**
 * The CSV export's query (reports/csv.ts): every inflow of a range with its sale's cashier and
 * whether a sale or standing account of this database is its, in the order of the index
 * inflows_day, so the file is written from range walks without a sort (plan tested in
 * csv-export-queries.test.ts).
 */
import type { Db } from './database';
import {
  LOCAL_COUNTER,
  LOCAL_SALE,
  PAID_TWICE_CASE,
  UNMATCHED_CASE,
  WRONG_AMOUNT_CASE,
  type Range,
} from './z-report-queries';

/**
 * One row of the walk as SQLite gives it, the columns in CSV_SQL's order (read with `raw`: no
 * object a row; a month is tens of thousands of rows, and the objects cost as much as the walk).
 */
export type CsvInflowRow = readonly [
  sessionId: string,
  occurredAt: number,
  status: string,
  amountKobo: number,
  externalReference: string | null,
  saleId: number | null,
  cashier: string | null,
  source: string,
  /** 0 or 1 (SQLite has no booleans). */
  localSale: number,
  localCounter: number,
  /** The report's case this row may be, by its own columns (INFLOW_CASE_KINDS), or null. */
  inflowCase: InflowCaseKind | null,
];

/** Where each column is in a CsvInflowRow. */
export const CSV_ROW = {
  sessionId: 0,
  occurredAt: 1,
  status: 2,
  amountKobo: 3,
  externalReference: 4,
  saleId: 5,
  cashier: 6,
  source: 7,
  localSale: 8,
  localCounter: 9,
  inflowCase: 10,
} as const;

/**
 * The report's cases found by walking the range's inflows (z-report-queries.ts), named by the
 * exception kind each becomes once its attribution agrees (reports/z-report.ts).
 */
export const INFLOW_CASE_KINDS = ['paid_twice', 'wrong_amount', 'unmatched_inflow'] as const;
export type InflowCaseKind = (typeof INFLOW_CASE_KINDS)[number];

/**
 * One walk of inflows_day with the inflow's sale joined by key. Whether a sale or a counter
 * account of this database is the row's is the report's rule (LOCAL_SALE, LOCAL_COUNTER), asked
 * only when the joined sale does not settle it: an inflow linked to a sale of this till made
 * without a counter is a local sale's, and one whose account and reference are its sale's is
 * not a standing account's (a sale's account is always purpose 'sale', its reference the
 * sale's). Most rows of a month are such rows: one lookup each instead of four or five.
 * The row's case column is the report's own condition for each kind (a row is at most one of
 * them: success with a sale, failed, success without one), read from the columns already here.
 */
export const CSV_SQL = `SELECT i.session_id AS sessionId, i.occurred_at AS occurredAt, i.status,
    i.amount_kobo AS amountKobo, i.external_reference AS externalReference, i.sale_id AS saleId,
    s.cashier, i.source,
    CASE WHEN s.id IS NOT NULL AND s.paired_counter_id IS NULL THEN 1
      ELSE ${LOCAL_SALE} END AS localSale,
    CASE WHEN s.id IS NOT NULL AND s.account_id = i.account_id
        AND s.reference = i.external_reference THEN 0
      ELSE ${LOCAL_COUNTER} END AS localCounter,
    CASE WHEN ${PAID_TWICE_CASE} THEN 'paid_twice'
      WHEN ${WRONG_AMOUNT_CASE} THEN 'wrong_amount'
      WHEN ${UNMATCHED_CASE} THEN 'unmatched_inflow' END AS inflowCase
  FROM inflows i LEFT JOIN sales s ON s.id = i.sale_id
  WHERE i.occurred_at >= ? AND i.occurred_at < ?
  ORDER BY i.occurred_at, i.status, i.amount_kobo, i.id`;

/**
 * Days of inflows read at once: better-sqlite3 hands over a statement's rows in one call (`all`)
 * at a fifth of the cost of one call a row (`iterate`; measured on a month of 31,000 rows), and a
 * week's rows bound what is held at once however long the range.
 */
const PAGE_MS = 7 * 86_400_000;

/**
 * The inflows of [fromMs, toMs), oldest first, a week of them at a time: the same rows in the
 * same order as one walk of the range (ORDER BY starts with occurred_at, the week's bound).
 */
export function* csvInflowPages(db: Db, range: Range): Generator<readonly CsvInflowRow[]> {
  const statement = db.prepare(CSV_SQL).raw(true);
  for (let fromMs = range.fromMs; fromMs < range.toMs; fromMs += PAGE_MS) {
    yield statement.all(fromMs, Math.min(fromMs + PAGE_MS, range.toMs)) as CsvInflowRow[];
  }
}
