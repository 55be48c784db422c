/**
 * The report's trend: the successful inflows of several business days, in one pass over one
 * range of inflows_success_attribution (EXPLAIN QUERY PLAN test in trend-queries.test.ts).
 *
 * Rows come back by 15-minute bucket, not by day: the days are cut from the buckets in
 * reports/trend.ts, because a business day starts at a whole local hour and every zone offset
 * is a multiple of 15 minutes, so no bucket straddles two days, whatever the zone and cut-off.
 * Each inflow's shop line is the attribution rule's (the same SQL functions as the shop view).
 */
import type { Db } from './database';
import {
  ATTRIBUTION_SQL_FUNCTIONS,
  LOCAL_COUNTER,
  LOCAL_SALE,
  type Range,
  type TotalRow,
} from './z-report-queries';

/** Named parameters: tillPrefix, fromMs, toMs. Needs the attribution SQL functions. */
export const TREND_SQL = `SELECT bucket, line, COUNT(*) AS count,
    COALESCE(SUM(amountKobo), 0) AS amountKobo
  FROM (SELECT i.occurred_at / 900000 AS bucket,
      ${ATTRIBUTION_SQL_FUNCTIONS.line}(i.external_reference, @tillPrefix, ${LOCAL_SALE},
        ${LOCAL_COUNTER}) AS line,
      i.amount_kobo AS amountKobo
    FROM inflows i
    WHERE i.occurred_at >= @fromMs AND i.occurred_at < @toMs AND i.status = 'success')
  GROUP BY bucket, line`;

export interface TrendBucketRow extends TotalRow {
  /** occurred_at / 900000 (a 15-minute bucket since the epoch). */
  readonly bucket: number;
  /** A ShopLine (reports/attribution.ts). */
  readonly line: string;
}

/** Needs the attribution SQL functions on `db` (reports/attribution-sql.ts). */
export function trendBuckets(db: Db, range: Range, tillPrefix: string): TrendBucketRow[] {
  return db.prepare(TREND_SQL).all({ ...range, tillPrefix }) as TrendBucketRow[];
}
