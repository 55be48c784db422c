/**
 * The end-of-day report's queries. Inflows count by the provider's own date (occurred_at); sales
 * by the time we confirmed them (paid_at). Each query starts from a bounded range of an index
 * (inflows_day, sales_paid or sales_created), so a report costs the days it covers however long
 * the history grows (EXPLAIN QUERY PLAN tests in z-report-queries.test.ts).
 *
 * Which till of the shop made a payment is decided by one pure rule (reports/attribution.ts),
 * which these queries call as SQL functions: the report registers them on the connection
 * first (registerAttributionSql), and every query that uses one says so.
 */
import { OPEN_SALE_STATES } from '#shared/sales';
import type { Db } from './database';

export interface TotalRow {
  readonly count: number;
  readonly amountKobo: number;
}

/** The SQL functions the attribution queries call (registered by reports/attribution-sql.ts). */
export const ATTRIBUTION_SQL_FUNCTIONS = {
  /** (reference, this till's prefix, local sale 0/1, local counter 0/1) -> AttributionKind */
  kind: 'tt_attribution_kind',
  /** (reference, this till's prefix, local sale 0/1, local counter 0/1) -> ShopLine */
  line: 'tt_shop_line',
  /** (reference) -> the making till's prefix, or NULL when the reference is not this app's */
  prefix: 'tt_reference_prefix',
} as const;

/** The headline: counts and sums by status over one range of the covering index. */
export const HEADLINE_SQL = `SELECT status, COUNT(*) AS count, COALESCE(SUM(amount_kobo), 0) AS amountKobo
  FROM inflows WHERE occurred_at >= ? AND occurred_at < ? GROUP BY status`;

/** Successful inflows in 15-minute buckets (every zone offset is a multiple of 15 minutes). */
export const BY_BUCKET_SQL = `SELECT occurred_at / 900000 AS bucket, COUNT(*) AS count,
    SUM(amount_kobo) AS amountKobo
  FROM inflows WHERE occurred_at >= ? AND occurred_at < ? AND status = 'success'
  GROUP BY bucket`;

export const BY_TILL_SQL = `SELECT till_id AS tillId, cashier, COUNT(*) AS count,
    SUM(amount_kobo) AS amountKobo
  FROM sales WHERE paid_at >= ? AND paid_at < ? AND state IN ('paid', 'paid_late')
  GROUP BY till_id, cashier ORDER BY amountKobo DESC, tillId, cashier`;

/**
 * SQL: 1 when the inflow aliased `i` paid this till's own sale of this database (linked, or by
 * its reference). A sale a counter paired to this hub made is in this database but is that
 * counter's: it counts by its reference's prefix, as another till of the shop.
 */
export const LOCAL_SALE = `(EXISTS (SELECT 1 FROM sales s2 WHERE s2.id = i.sale_id
      AND s2.paired_counter_id IS NULL)
    OR EXISTS (SELECT 1 FROM sales s2 WHERE s2.reference = i.external_reference
      AND s2.paired_counter_id IS NULL))`;

/** SQL: 1 when the inflow aliased `i` went to a standing account of this database (id or reference). */
export const LOCAL_COUNTER = `EXISTS (SELECT 1 FROM virtual_accounts a WHERE a.purpose = 'counter'
    AND (a.id = i.account_id OR a.reference = i.external_reference))`;

/**
 * What makes an inflow (aliased `i`, its linked sale `s`) a case of each kind the report finds
 * by walking the range's inflows, besides the attribution its query also asks (the kind or line
 * of shop: inflowCaseHolds in reports/z-report.ts says the same for a row read with it). The
 * report's queries filter on these; the CSV's walk reads them as a column, so that it finds its
 * rows' cases as it writes them (csv-export-queries.ts). Not in a column: `s` may be missing
 * (a LEFT JOIN), which none of them holds for except the wrong amount's, as in its query.
 */
export const PAID_TWICE_CASE = `(i.status = 'success' AND s.paid_session_id IS NOT NULL
    AND s.paid_session_id <> i.session_id)`;
export const WRONG_AMOUNT_CASE = `(i.status = 'failed' AND s.paid_session_id IS NOT i.session_id)`;
/** `+i.sale_id`: most old inflows have no sale, so inflows_sale would walk the history. */
export const UNMATCHED_CASE = `(i.status = 'success' AND +i.sale_id IS NULL)`;

const ATTRIBUTION_ARGS = `i.external_reference, @tillPrefix, ${LOCAL_SALE}, ${LOCAL_COUNTER}`;

/**
 * Successful inflows by the line of the shop view they count on, and by the making till's
 * prefix (so other tills come out one by one). Named parameters: tillPrefix, fromMs, toMs.
 */
export const SHOP_LINES_SQL = `SELECT line, prefix, COUNT(*) AS count,
    COALESCE(SUM(amountKobo), 0) AS amountKobo
  FROM (SELECT ${ATTRIBUTION_SQL_FUNCTIONS.line}(${ATTRIBUTION_ARGS}) AS line,
      ${ATTRIBUTION_SQL_FUNCTIONS.prefix}(i.external_reference) AS prefix,
      i.amount_kobo AS amountKobo
    FROM inflows i
    WHERE i.occurred_at >= @fromMs AND i.occurred_at < @toMs AND i.status = 'success')
  GROUP BY line, prefix`;

/** Successful inflows no till of this shop made. Named parameters: tillPrefix, fromMs, toMs, limit. */
export const UNMATCHED_SQL = `SELECT i.session_id AS sessionId, i.external_reference AS reference,
    i.amount_kobo AS amountKobo, i.occurred_at AS at
  FROM inflows i WHERE i.occurred_at >= @fromMs AND i.occurred_at < @toMs
    AND ${UNMATCHED_CASE}
    AND ${ATTRIBUTION_SQL_FUNCTIONS.line}(${ATTRIBUTION_ARGS}) = 'not-ours'
  ORDER BY i.occurred_at LIMIT @limit`;

/**
 * Failed inflows, except the payment a sale was marked paid with (that one was reversed) and
 * another till's (that till's report lists it, beside its sale). Named parameters: tillPrefix,
 * fromMs, toMs, limit.
 */
export const WRONG_AMOUNT_SQL = `SELECT i.session_id AS sessionId, i.external_reference AS reference,
    i.amount_kobo AS amountKobo, i.occurred_at AS at, i.sale_id AS saleId,
    s.amount_kobo AS expectedKobo
  FROM inflows i LEFT JOIN sales s ON s.id = i.sale_id
  WHERE i.occurred_at >= @fromMs AND i.occurred_at < @toMs AND ${WRONG_AMOUNT_CASE}
    AND ${ATTRIBUTION_SQL_FUNCTIONS.kind}(${ATTRIBUTION_ARGS}) NOT IN ('other-till', @skipKind)
  ORDER BY i.occurred_at LIMIT @limit`;

/**
 * Settled transfers no till of this shop made ("other income" when the account also takes money
 * from other channels). Named parameters: tillPrefix, fromMs, toMs, limit.
 */
export const OTHER_INCOME_SQL = `SELECT i.session_id AS sessionId, i.external_reference AS reference,
    i.amount_kobo AS amountKobo, i.status AS status, i.occurred_at AS at
  FROM inflows i WHERE i.occurred_at >= @fromMs AND i.occurred_at < @toMs
    AND i.status IN ('success', 'failed') AND +i.sale_id IS NULL
    AND ${ATTRIBUTION_SQL_FUNCTIONS.line}(${ATTRIBUTION_ARGS}) = 'not-ours'
  ORDER BY i.occurred_at LIMIT @limit`;

/**
 * Successful inflows beyond the one that paid their sale: the customer paid twice (or paid into
 * the sale's account again after it closed). Named parameters: fromMs, toMs, limit.
 */
export const PAID_TWICE_SQL = `SELECT i.session_id AS sessionId, i.amount_kobo AS amountKobo,
    i.occurred_at AS at, s.id AS saleId, s.amount_kobo AS saleKobo,
    s.paid_session_id AS paidSessionId
  FROM inflows i JOIN sales s ON s.id = i.sale_id
  WHERE i.occurred_at >= @fromMs AND i.occurred_at < @toMs AND ${PAID_TWICE_CASE}
  ORDER BY i.occurred_at LIMIT @limit`;

/**
 * Successes above the owner's limit into a standing (static-flex counter) account, which takes
 * any amount by design. Named parameters: fromMs, toMs, aboveKobo, limit.
 */
export const STANDING_ABOVE_LIMIT_SQL = `SELECT i.session_id AS sessionId,
    i.external_reference AS reference, i.amount_kobo AS amountKobo, i.occurred_at AS at,
    a.account_number AS accountNumber
  FROM inflows i JOIN virtual_accounts a ON a.id = i.account_id
  WHERE i.occurred_at >= @fromMs AND i.occurred_at < @toMs AND i.status = 'success'
    AND i.amount_kobo > @aboveKobo AND a.purpose = 'counter' AND a.type = 'static-flex'
  ORDER BY i.occurred_at LIMIT @limit`;

/**
 * The range's paid sales the report looks at again, in one walk of them with each one's inflow
 * (paidSaleChecks splits them):
 * - paid late: paid after the sale had closed (closedAs: how it had closed, from its events);
 * - reversed: the inflow's status is now something other than success (reversed after the
 *   sale was confirmed);
 * - missing from the listing: no inflow row, or one no listing ever showed (listed_status, set
 *   together with listed_at, stays NULL when only callbacks and polls reported it), or one the
 *   listing shows as failed or pending while a newer status check still says success. Only
 *   sales paid before the last complete sync started (less the listing lag: the third
 *   parameter) are judged: that sync read a listing that must already hold them.
 * Reversed and missing never meet (a reversal's status is not success; a missing one's is
 * success or none); a sale paid late may be either too.
 * Parameters: fromMs, toMs, coveredBefore.
 */
export const PAID_SALE_CHECKS_SQL = `SELECT s.id AS saleId, s.amount_kobo AS amountKobo,
    s.paid_at AS at, s.paid_session_id AS sessionId, i.status AS status,
    i.status_observed_at AS changedAt, i.listed_status AS listedStatus,
    s.state = 'paid_late' AS paidLate,
    CASE WHEN s.state = 'paid_late' THEN (SELECT e.to_state FROM sale_events e
      WHERE e.sale_id = s.id AND e.to_state IN ('expired', 'cancelled', 'failed_to_create')
      ORDER BY e.id DESC LIMIT 1) END AS closedAs
  FROM sales s LEFT JOIN inflows i ON i.session_id = s.paid_session_id
  WHERE s.paid_at >= ? AND s.paid_at < ? AND s.state IN ('paid', 'paid_late')
    AND (s.state = 'paid_late' OR i.status <> 'success'
      OR (s.paid_at < ? AND (i.listed_status IS NOT 'success')
        AND (i.status IS NULL OR i.status = 'success')))
  ORDER BY s.paid_at`;

const OPEN_LIST = OPEN_SALE_STATES.map((state) => `'${state}'`).join(', ');

/**
 * Sales created in the range whose last state change before the cut-off left them open. A sale
 * last changed before the cut-off is in the state it had then: its state and updated_at are
 * written with its newest event, at the same moment (transitionSale), so the events are read
 * only for the sales changed since (on a past day, the few paid late or expired after it).
 * Parameters: cutoff, cutoff, fromMs, toMs, limit.
 */
export const OPEN_AT_CUTOFF_SQL = `SELECT id AS saleId, amountKobo, at, stateAtEnd FROM (
    SELECT s.id, s.amount_kobo AS amountKobo, s.created_at AS at,
      CASE WHEN s.updated_at < ? THEN s.state ELSE
        (SELECT e.to_state FROM sale_events e WHERE e.sale_id = s.id AND e.at < ?
          ORDER BY e.id DESC LIMIT 1) END AS stateAtEnd
    FROM sales s WHERE s.created_at >= ? AND s.created_at < ?)
  WHERE stateAtEnd IN (${OPEN_LIST})
  ORDER BY at LIMIT ?`;

// ---------------------------------------------------------------------------------------------
// Typed reads. `range` is [fromMs, toMs); `limit` caps each list of exceptions.

export interface Range {
  readonly fromMs: number;
  readonly toMs: number;
}

export type HeadlineStatus = 'success' | 'failed' | 'pending';

export function headlineRows(db: Db, range: Range): (TotalRow & { readonly status: string })[] {
  return db.prepare(HEADLINE_SQL).all(range.fromMs, range.toMs) as (TotalRow & {
    status: string;
  })[];
}

export function successBuckets(db: Db, range: Range): (TotalRow & { readonly bucket: number })[] {
  return db.prepare(BY_BUCKET_SQL).all(range.fromMs, range.toMs) as (TotalRow & {
    bucket: number;
  })[];
}

export interface TillCashierRow extends TotalRow {
  readonly tillId: string | null;
  readonly cashier: string | null;
}

export function paidSalesByTill(db: Db, range: Range): TillCashierRow[] {
  return db.prepare(BY_TILL_SQL).all(range.fromMs, range.toMs) as TillCashierRow[];
}

export interface ShopLineRow extends TotalRow {
  /** A ShopLine (reports/attribution.ts). */
  readonly line: string;
  readonly prefix: string | null;
}

/** Needs the attribution SQL functions on `db`. */
export function shopLineRows(db: Db, range: Range, tillPrefix: string): ShopLineRow[] {
  return db.prepare(SHOP_LINES_SQL).all({ ...range, tillPrefix }) as ShopLineRow[];
}

export interface InflowCase {
  readonly sessionId: string;
  readonly reference: string | null;
  readonly amountKobo: number;
  readonly at: number;
}

/** Needs the attribution SQL functions on `db`. */
export function unmatchedInflows(
  db: Db,
  range: Range,
  tillPrefix: string,
  limit: number,
): InflowCase[] {
  return db.prepare(UNMATCHED_SQL).all({ ...range, tillPrefix, limit }) as InflowCase[];
}

export interface WrongAmountCase extends InflowCase {
  readonly saleId: number | null;
  readonly expectedKobo: number | null;
}

/**
 * Needs the attribution SQL functions on `db`. `withoutNotOurs`: leave out the transfers no till
 * of this shop made (they are other income then).
 */
export function wrongAmountInflows(
  db: Db,
  range: Range,
  tillPrefix: string,
  limit: number,
  withoutNotOurs = false,
): WrongAmountCase[] {
  const skipKind = withoutNotOurs ? 'not-ours' : 'other-till';
  return db
    .prepare(WRONG_AMOUNT_SQL)
    .all({ ...range, tillPrefix, limit, skipKind }) as WrongAmountCase[];
}

/** Counts and sums of OTHER_INCOME_SQL's transfers by status. Same named parameters, no limit. */
export const OTHER_INCOME_TOTALS_SQL = `SELECT i.status AS status, COUNT(*) AS count,
    COALESCE(SUM(i.amount_kobo), 0) AS amountKobo
  FROM inflows i WHERE i.occurred_at >= @fromMs AND i.occurred_at < @toMs
    AND i.status IN ('success', 'failed') AND +i.sale_id IS NULL
    AND ${ATTRIBUTION_SQL_FUNCTIONS.line}(${ATTRIBUTION_ARGS}) = 'not-ours'
  GROUP BY i.status`;

/** Needs the attribution SQL functions on `db`. */
export function otherIncomeTotals(
  db: Db,
  range: Range,
  tillPrefix: string,
): (TotalRow & { readonly status: string })[] {
  return db.prepare(OTHER_INCOME_TOTALS_SQL).all({ ...range, tillPrefix }) as (TotalRow & {
    status: string;
  })[];
}

export interface OtherIncomeRow extends InflowCase {
  readonly status: 'success' | 'failed';
}

/** Needs the attribution SQL functions on `db`. */
export function otherIncomeInflows(
  db: Db,
  range: Range,
  tillPrefix: string,
  limit: number,
): OtherIncomeRow[] {
  return db.prepare(OTHER_INCOME_SQL).all({ ...range, tillPrefix, limit }) as OtherIncomeRow[];
}

export interface SaleCase {
  readonly saleId: number;
  readonly amountKobo: number;
  readonly at: number;
  readonly sessionId: string | null;
}

export interface PaidTwiceCase extends InflowCase {
  readonly saleId: number;
  readonly saleKobo: number;
  readonly paidSessionId: string;
}

export function paidTwiceInflows(db: Db, range: Range, limit: number): PaidTwiceCase[] {
  return db
    .prepare(PAID_TWICE_SQL)
    .all({ ...range, limit })
    .map((row) => ({ ...(row as Omit<PaidTwiceCase, 'reference'>), reference: null }));
}

export interface StandingAboveLimitCase extends InflowCase {
  readonly accountNumber: string | null;
}

export function standingAboveLimitInflows(
  db: Db,
  range: Range,
  aboveKobo: number,
  limit: number,
): StandingAboveLimitCase[] {
  return db
    .prepare(STANDING_ABOVE_LIMIT_SQL)
    .all({ ...range, aboveKobo, limit }) as StandingAboveLimitCase[];
}

/** A sale paid late, with how it had closed before the money came (null when no event says). */
export type PaidLateCase = SaleCase & {
  readonly closedAs: 'expired' | 'cancelled' | 'failed_to_create' | null;
};

export type ReversedCase = SaleCase & { readonly status: string; readonly changedAt: number };
export type MissingCase = SaleCase & { readonly listedStatus: string | null };

/**
 * The range's paid sales the report looks at again, oldest first, at most `limit` of each
 * kind. `coveredBefore` null: no complete sync yet, so none is judged missing.
 */
export function paidSaleChecks(
  db: Db,
  range: Range,
  coveredBefore: number | null,
  limit: number,
): {
  readonly paidLate: PaidLateCase[];
  readonly reversed: ReversedCase[];
  readonly missing: MissingCase[];
} {
  const rows = db
    .prepare(PAID_SALE_CHECKS_SQL)
    .all(range.fromMs, range.toMs, coveredBefore ?? Number.MIN_SAFE_INTEGER) as (SaleCase & {
    status: string | null;
    changedAt: number | null;
    listedStatus: string | null;
    paidLate: number;
    closedAs: PaidLateCase['closedAs'];
  })[];
  const paidLate: PaidLateCase[] = [];
  const reversed: ReversedCase[] = [];
  const missing: MissingCase[] = [];
  const covered = coveredBefore ?? Number.MIN_SAFE_INTEGER;
  for (const { status, changedAt, listedStatus, paidLate: late, closedAs, ...sale } of rows) {
    if (late === 1 && paidLate.length < limit) paidLate.push({ ...sale, closedAs });
    if (status !== null && status !== 'success') {
      if (reversed.length < limit) reversed.push({ ...sale, status, changedAt: changedAt ?? 0 });
    } else if (sale.at < covered && listedStatus !== 'success' && missing.length < limit) {
      missing.push({ ...sale, listedStatus });
    }
  }
  return { paidLate, reversed, missing };
}

export interface OpenSaleCase {
  readonly saleId: number;
  readonly amountKobo: number;
  readonly at: number;
  readonly stateAtEnd: string;
}

export function salesOpenAtCutoff(
  db: Db,
  range: Range,
  cutoffMs: number,
  limit: number,
): OpenSaleCase[] {
  return db
    .prepare(OPEN_AT_CUTOFF_SQL)
    .all(cutoffMs, cutoffMs, range.fromMs, range.toMs, limit) as OpenSaleCase[];
}
