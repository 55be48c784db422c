/**
 * The CSV export's query (reports/csv.ts): every inflow of a range with its sale's cashier and
 * whether a sale or counter account of this database is its, in the order of the index
 * inflows_day, so the file is written from one range walk without a sort (plan tested in
 * csv-export-queries.test.ts).
 */
import type { Db } from './database';
import { LOCAL_COUNTER, LOCAL_SALE, type Range } from './z-report-queries';

export interface CsvInflowRow {
  readonly sessionId: string;
  readonly occurredAt: number;
  readonly status: string;
  readonly amountKobo: number;
  readonly externalReference: string | null;
  readonly saleId: number | null;
  readonly cashier: string | null;
  readonly source: string;
  /** 0 or 1 (SQLite has no booleans). */
  readonly localSale: number;
  readonly localCounter: number;
}

export const CSV_SQL = `SELECT i.session_id AS sessionId, i.occurred_at AS occurredAt, i.status,
    i.amount_kobo AS amountKobo, i.external_reference AS externalReference, i.sale_id AS saleId,
    s.cashier, i.source, ${LOCAL_SALE} AS localSale, ${LOCAL_COUNTER} AS localCounter
  FROM inflows i LEFT JOIN sales s ON s.id = i.sale_id
  WHERE i.occurred_at >= ? AND i.occurred_at < ?
  ORDER BY i.occurred_at, i.status, i.amount_kobo, i.id`;

/** The inflows of [fromMs, toMs), oldest first, one at a time. */
export function iterateCsvInflows(db: Db, range: Range): IterableIterator<CsvInflowRow> {
  return db.prepare(CSV_SQL).iterate(range.fromMs, range.toMs) as IterableIterator<CsvInflowRow>;
}
