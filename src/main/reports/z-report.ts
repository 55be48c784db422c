/**
 * The end-of-day (Z) report: what the provider says came in during a range of business days,
 * what this till sold, and the cases a person must look at, each with what to do about it.
 *
 * Inflows count by the provider's own date (occurred_at); sales by the time we confirmed them
 * (paid_at). The headline totals come from one range scan of the covering index inflows_day
 * (occurred_at, status, amount_kobo): the report stays fast however long the history grows.
 */
import { formatNaira } from '../../shared/money';
import { OPEN_SALE_STATES } from '../../shared/sales';
import type { AmountTotal, ReportException, ZReportView } from '../../shared/views';
import type { Db } from '../store/database';
import {
  openUnreadableByProblem,
  unreadableCallbacks,
  type UnreadableCallbackCount,
} from '../store/unreadable-repo';
import { classifyContentType } from '../webhook/callback-parser';
import { lastCompleteSyncRun, latestSyncRun, toSyncRunView } from './sync-store';
import {
  localClock,
  localDateTime,
  localHourFn,
  reportRange,
  type DayRangeOptions,
} from './report-range';

export interface ZReportOptions extends DayRangeOptions {
  readonly now: number;
  /** Most exceptions listed per kind (the oldest first); default 500. */
  readonly exceptionLimit?: number;
  /**
   * How long after a payment the provider's listing may take to show it. A paid sale is called
   * missing from the listing only when a complete sync started at least this long after it.
   */
  readonly listingLagMs?: number;
}

export const DEFAULT_EXCEPTION_LIMIT = 500;
export const DEFAULT_LISTING_LAG_MS = 5 * 60_000;

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

const COUNTER_ACCOUNT = `SELECT 1 FROM virtual_accounts a WHERE a.purpose = 'counter'
  AND (a.id = i.account_id OR a.reference = i.external_reference)`;

export const COUNTER_SQL = `SELECT COUNT(*) AS count, COALESCE(SUM(i.amount_kobo), 0) AS amountKobo
  FROM inflows i WHERE i.occurred_at >= ? AND i.occurred_at < ? AND i.status = 'success'
    AND EXISTS (${COUNTER_ACCOUNT})`;

/** `+i.sale_id`: most old inflows have no sale, so inflows_sale would walk the history. */
export const UNMATCHED_SQL = `SELECT i.session_id AS sessionId, i.external_reference AS reference,
    i.amount_kobo AS amountKobo, i.occurred_at AS at
  FROM inflows i WHERE i.occurred_at >= ? AND i.occurred_at < ? AND i.status = 'success'
    AND +i.sale_id IS NULL
    AND NOT EXISTS (SELECT 1 FROM sales s WHERE s.reference = i.external_reference)
    AND NOT EXISTS (${COUNTER_ACCOUNT})
  ORDER BY i.occurred_at LIMIT ?`;

/** Failed inflows, except the payment a sale was marked paid with (that one was reversed). */
export const WRONG_AMOUNT_SQL = `SELECT i.session_id AS sessionId, i.external_reference AS reference,
    i.amount_kobo AS amountKobo, i.occurred_at AS at, i.sale_id AS saleId,
    s.amount_kobo AS expectedKobo
  FROM inflows i LEFT JOIN sales s ON s.id = i.sale_id
  WHERE i.occurred_at >= ? AND i.occurred_at < ? AND i.status = 'failed'
    AND s.paid_session_id IS NOT i.session_id
  ORDER BY i.occurred_at LIMIT ?`;

export const PAID_LATE_SQL = `SELECT id AS saleId, amount_kobo AS amountKobo, paid_at AS at,
    paid_session_id AS sessionId
  FROM sales WHERE paid_at >= ? AND paid_at < ? AND state = 'paid_late'
  ORDER BY paid_at LIMIT ?`;

/**
 * Paid sales the provider's listing does not back: no inflow row, or one no listing ever
 * showed (listed_status, set together with listed_at, stays NULL when only callbacks and polls
 * reported it), or one the listing shows as failed or pending while a newer status check still
 * says success. Only sales paid before the last complete sync started (less the listing lag)
 * are judged: that sync read a listing that must already hold them. A stored status that is
 * no longer success is a reversal (REVERSED_SQL), not this.
 */
export const MISSING_SQL = `SELECT s.id AS saleId, s.amount_kobo AS amountKobo, s.paid_at AS at,
    s.paid_session_id AS sessionId, i.listed_status AS listedStatus
  FROM sales s LEFT JOIN inflows i ON i.session_id = s.paid_session_id
  WHERE s.paid_at >= ? AND s.paid_at < ? AND s.paid_at < ? AND s.state IN ('paid', 'paid_late')
    AND (i.listed_status IS NOT 'success') AND (i.status IS NULL OR i.status = 'success')
  ORDER BY s.paid_at LIMIT ?`;

/**
 * Sales marked paid whose payment the provider now reports as something other than success:
 * reversed after the fact (the inflow's status changed since the sale was confirmed).
 */
export const REVERSED_SQL = `SELECT s.id AS saleId, s.amount_kobo AS amountKobo, s.paid_at AS at,
    s.paid_session_id AS sessionId, i.status AS status, i.status_observed_at AS changedAt
  FROM sales s JOIN inflows i ON i.session_id = s.paid_session_id
  WHERE s.paid_at >= ? AND s.paid_at < ? AND s.state IN ('paid', 'paid_late')
    AND i.status <> 'success'
  ORDER BY s.paid_at LIMIT ?`;

const OPEN_LIST = OPEN_SALE_STATES.map((state) => `'${state}'`).join(', ');

/** Sales created in the range whose last state change before the cut-off left them open. */
export const OPEN_AT_CUTOFF_SQL = `SELECT id AS saleId, amountKobo, at, stateAtEnd FROM (
    SELECT s.id, s.amount_kobo AS amountKobo, s.created_at AS at,
      (SELECT e.to_state FROM sale_events e WHERE e.sale_id = s.id AND e.at < ?
        ORDER BY e.id DESC LIMIT 1) AS stateAtEnd
    FROM sales s WHERE s.created_at >= ? AND s.created_at < ?)
  WHERE stateAtEnd IN (${OPEN_LIST})
  ORDER BY at LIMIT ?`;

interface TotalRow {
  readonly count: number;
  readonly amountKobo: number;
}

function total(row: TotalRow | undefined): AmountTotal {
  return { count: row?.count ?? 0, amountKobo: row?.amountKobo ?? 0 };
}

/** Counts and sums (kobo) of success, failed and pending inflows in [fromMs, toMs). */
export function headlineTotals(
  db: Db,
  fromMs: number,
  toMs: number,
): Record<'success' | 'failed' | 'pending', AmountTotal> {
  const rows = db.prepare(HEADLINE_SQL).all(fromMs, toMs) as (TotalRow & { status: string })[];
  const find = (status: string) => total(rows.find((row) => row.status === status));
  return { success: find('success'), failed: find('failed'), pending: find('pending') };
}

export function buildZReport(db: Db, options: ZReportOptions): ZReportView {
  const { fromMs, toMs } = reportRange(options);
  const { timeZone } = options;
  const limit = options.exceptionLimit ?? DEFAULT_EXCEPTION_LIMIT;
  const lagMs = options.listingLagMs ?? DEFAULT_LISTING_LAG_MS;

  // One read transaction: every figure comes from the same snapshot even while sales go on.
  return db.transaction((): ZReportView => {
    const headline = headlineTotals(db, fromMs, toMs);

    const hourOf = localHourFn(fromMs, toMs, timeZone);
    const hours = Array.from({ length: 24 }, () => ({ count: 0, amountKobo: 0 }));
    for (const bucket of db.prepare(BY_BUCKET_SQL).all(fromMs, toMs) as (TotalRow & {
      bucket: number;
    })[]) {
      const slot = hours[hourOf(bucket.bucket * 900_000)];
      if (slot) {
        slot.count += bucket.count;
        slot.amountKobo += bucket.amountKobo;
      }
    }
    // In business-day order: a day that starts at 04:00 reads 04, 05, ... 23, 00, ... 03.
    const byHour = hours.map((_, i) => {
      const hour = (i + options.cutoffHour) % 24;
      return { hour, ...(hours[hour] ?? { count: 0, amountKobo: 0 }) };
    });

    const byTill = (
      db.prepare(BY_TILL_SQL).all(fromMs, toMs) as (TotalRow & {
        tillId: string | null;
        cashier: string | null;
      })[]
    ).map((row) => ({
      tillId: row.tillId,
      cashier: row.cashier,
      count: row.count,
      amountKobo: row.amountKobo,
    }));

    const counter = total(db.prepare(COUNTER_SQL).get(fromMs, toMs) as TotalRow | undefined);
    const lastComplete = lastCompleteSyncRun(db);
    const latest = latestSyncRun(db);
    const exceptions = [
      ...reversed(db, fromMs, toMs, limit, timeZone),
      ...paidLate(db, fromMs, toMs, limit, timeZone),
      ...wrongAmounts(db, fromMs, toMs, limit, timeZone),
      ...unmatched(db, fromMs, toMs, limit, timeZone),
      ...(lastComplete
        ? missingFromProvider(db, fromMs, toMs, lastComplete.startedAt - lagMs, limit, timeZone)
        : []),
      ...openAtCutoff(db, fromMs, toMs, Math.min(options.now, toMs), limit, timeZone),
      ...unreadableRows(db, timeZone),
      ...unreadableCallbacksOf(db, fromMs, toMs),
    ].sort((a, b) => (a.at ?? 0) - (b.at ?? 0));

    return {
      fromDay: options.fromDay,
      toDay: options.toDay,
      fromMs,
      toMs,
      timeZone,
      cutoffHour: options.cutoffHour,
      success: headline.success,
      failed: headline.failed,
      pending: headline.pending,
      byHour,
      byTill,
      counter,
      exceptions,
      lastSync: latest ? toSyncRunView(latest) : null,
      generatedAt: options.now,
    };
  })();
}

// ---------------------------------------------------------------------------------------------
// Exceptions

interface SaleCase {
  readonly saleId: number;
  readonly amountKobo: number;
  readonly at: number;
  readonly sessionId: string | null;
}

function paidLate(
  db: Db,
  fromMs: number,
  toMs: number,
  limit: number,
  zone: string,
): ReportException[] {
  return (db.prepare(PAID_LATE_SQL).all(fromMs, toMs, limit) as SaleCase[]).map((row) => ({
    kind: 'paid_late',
    saleId: row.saleId,
    sessionId: row.sessionId,
    amountKobo: row.amountKobo,
    at: row.at,
    message: `Sale #${row.saleId} (${formatNaira(row.amountKobo)}) was paid at ${localClock(row.at, zone)}, after it had expired or been cancelled.`,
    action:
      'Find the customer: if they left without the goods, give them the goods or refund the transfer. Note what you did on the sale.',
  }));
}

function wrongAmounts(
  db: Db,
  fromMs: number,
  toMs: number,
  limit: number,
  zone: string,
): ReportException[] {
  const rows = db.prepare(WRONG_AMOUNT_SQL).all(fromMs, toMs, limit) as {
    sessionId: string;
    reference: string | null;
    amountKobo: number;
    at: number;
    saleId: number | null;
    expectedKobo: number | null;
  }[];
  return rows.map((row) => {
    const target =
      row.saleId === null
        ? `to reference ${row.reference ?? 'unknown'}`
        : `for sale #${row.saleId}${row.expectedKobo === null ? '' : ` (expected ${formatNaira(row.expectedKobo)})`}`;
    return {
      kind: 'wrong_amount',
      saleId: row.saleId,
      sessionId: row.sessionId,
      amountKobo: row.amountKobo,
      at: row.at,
      message: `A transfer of ${formatNaira(row.amountKobo)} ${target} at ${localClock(row.at, zone)} was rejected by the provider (wrong amount, or the account was already paid).`,
      action:
        row.expectedKobo === null
          ? 'No money was kept: the bank returns a rejected transfer to the customer. If the customer complains, show them this line and the session id.'
          : `No money was kept: the bank returns it to the customer. If the sale is still unpaid, ask the customer to send exactly ${formatNaira(row.expectedKobo)}, or start a new sale.`,
    };
  });
}

function unmatched(
  db: Db,
  fromMs: number,
  toMs: number,
  limit: number,
  zone: string,
): ReportException[] {
  const rows = db.prepare(UNMATCHED_SQL).all(fromMs, toMs, limit) as {
    sessionId: string;
    reference: string | null;
    amountKobo: number;
    at: number;
  }[];
  return rows.map((row) => ({
    kind: 'unmatched_inflow',
    saleId: null,
    sessionId: row.sessionId,
    amountKobo: row.amountKobo,
    at: row.at,
    message: `${formatNaira(row.amountKobo)} arrived at ${localClock(row.at, zone)} (reference ${row.reference ?? 'none'}) but matches no sale on this till.`,
    action:
      'Check whether another till or a static account made by someone else took this payment. If nobody can account for it, do not hand out goods or refunds for it: ask the provider about the session id.',
  }));
}

function missingFromProvider(
  db: Db,
  fromMs: number,
  toMs: number,
  coveredBefore: number,
  limit: number,
  zone: string,
): ReportException[] {
  const rows = db.prepare(MISSING_SQL).all(fromMs, toMs, coveredBefore, limit) as (SaleCase & {
    listedStatus: string | null;
  })[];
  return rows.map((row) => ({
    kind: 'missing_from_provider',
    saleId: row.saleId,
    sessionId: row.sessionId,
    amountKobo: row.amountKobo,
    at: row.at,
    message:
      row.listedStatus === null
        ? `Sale #${row.saleId} (${formatNaira(row.amountKobo)}) is marked paid at ${localDateTime(row.at, zone)}, but the provider's transaction list does not show that payment.`
        : `Sale #${row.saleId} (${formatNaira(row.amountKobo)}) is marked paid at ${localDateTime(row.at, zone)}, but the provider's transaction list shows that payment as ${row.listedStatus}.`,
    action:
      'Run a full sync. If it is still not shown as successful, ask the customer for the transfer receipt and give the provider the session id before paying out this amount.',
  }));
}

function openAtCutoff(
  db: Db,
  fromMs: number,
  toMs: number,
  cutoffMs: number,
  limit: number,
  zone: string,
): ReportException[] {
  const rows = db.prepare(OPEN_AT_CUTOFF_SQL).all(cutoffMs, fromMs, toMs, limit) as {
    saleId: number;
    amountKobo: number;
    at: number;
    stateAtEnd: string;
  }[];
  return rows.map((row) => ({
    kind: 'open_at_cutoff',
    saleId: row.saleId,
    sessionId: null,
    amountKobo: row.amountKobo,
    at: row.at,
    message: `Sale #${row.saleId} (${formatNaira(row.amountKobo)}), started at ${localClock(row.at, zone)}, was still waiting for payment (${row.stateAtEnd.replace('_', ' ')}) at the cut-off.`,
    action:
      "Open the sale: if the customer says they paid, press 'Customer says paid' to check again; if they left, cancel it. A payment that still comes is recorded as paid late.",
  }));
}

function reversed(
  db: Db,
  fromMs: number,
  toMs: number,
  limit: number,
  zone: string,
): ReportException[] {
  const rows = db.prepare(REVERSED_SQL).all(fromMs, toMs, limit) as (SaleCase & {
    status: string;
    changedAt: number;
  })[];
  return rows.map((row) => ({
    kind: 'reversed',
    saleId: row.saleId,
    sessionId: row.sessionId,
    amountKobo: row.amountKobo,
    at: row.at,
    message: `Sale #${row.saleId} (${formatNaira(row.amountKobo)}) was marked paid at ${localClock(row.at, zone)}, but the provider now reports that payment as ${row.status} (since ${localDateTime(row.changedAt, zone)}): it reversed the payment or no longer counts it as settled.`,
    action:
      'Do not count this money as received. Ask the provider about the session id; if the money does not come back, settle with the customer (the goods or a new payment). Note what you did on the sale.',
  }));
}

/** Distinct problems shown in one exception; the rest are summed up. */
const MAX_PROBLEMS_SHOWN = 5;

function rowsWord(count: number): string {
  return count === 1 ? '1 row' : `${count} rows`;
}

/**
 * The listing rows the till could not read and no later full sync has taken in. They may belong
 * to any day (their date may be what is unreadable), so every report shows them.
 */
function unreadableRows(db: Db, zone: string): ReportException[] {
  const problems = openUnreadableByProblem(db);
  if (problems.length === 0) return [];
  const total = problems.reduce((sum, p) => sum + p.count, 0);
  const firstSeen = Math.min(...problems.map((p) => p.firstSeenAt));
  const byCount = [...problems].sort((a, b) => b.count - a.count);
  const shown = byCount
    .slice(0, MAX_PROBLEMS_SHOWN)
    .map((p) => `${p.problem} (${rowsWord(p.count)})`);
  const rest = byCount.length - shown.length;
  return [
    {
      kind: 'unreadable_rows',
      saleId: null,
      sessionId: null,
      amountKobo: null,
      at: firstSeen,
      message: `${total === 1 ? "1 row of the provider's transaction list" : `${total} rows of the provider's transaction list`} could not be read (first seen ${localDateTime(firstSeen, zone)}): ${shown.join('; ')}${rest > 0 ? `; and ${rest} other problems` : ''}. They are kept: nothing is lost, but these figures may be missing them.`,
      action:
        "Sync again later: a sync that can read them takes them in. If they stay, ask the provider's support about the rows their list cannot serve readably (the till keeps each one as it was received).",
    },
  ];
}

/** A sender's header may carry a tab; nothing of that kind belongs in a report line. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** What was wrong with a kind of unreadable callback, in words; the sender's text cut short. */
function callbackProblem(group: UnreadableCallbackCount): string {
  if (group.parseStatus === 'ok') return 'readable, but with no reference or session id in it';
  switch (classifyContentType(group.contentType)) {
    case 'json':
      return 'JSON that could not be parsed';
    case 'form':
      return 'a form that could not be parsed';
    case 'none':
      return 'no content type, and not JSON';
    case 'unsupported': {
      const media =
        (group.contentType ?? '').split(';', 1)[0]?.replace(CONTROL_CHARACTERS, '') ?? '';
      return `sent as ${media.length > 60 ? `${media.slice(0, 60)}...` : media}, not JSON or a form`;
    }
  }
}

/** Callback bodies received in the range that could not be read. */
function unreadableCallbacksOf(db: Db, fromMs: number, toMs: number): ReportException[] {
  const groups = unreadableCallbacks(db, fromMs, toMs);
  if (groups.length === 0) return [];
  const counts = new Map<string, number>();
  for (const group of groups) {
    const problem = callbackProblem(group);
    counts.set(problem, (counts.get(problem) ?? 0) + group.count);
  }
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  const kinds = [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([problem, count]) => `${problem} (${count})`);
  return [
    {
      kind: 'unreadable_callbacks',
      saleId: null,
      sessionId: null,
      amountKobo: null,
      at: Math.min(...groups.map((g) => g.firstAt)),
      message: `${total === 1 ? '1 payment notification (callback)' : `${total} payment notifications (callbacks)`} received in this period could not be read: ${kinds.join('; ')}. Each is kept as it was received.`,
      action:
        "Nothing is lost: the till confirms every payment with the provider itself. If this keeps happening, ask the provider's support what their callbacks send.",
    },
  ];
}
