/**
 * The cases of a range a person must look at, each with what to do about it: the Z-report's
 * exceptions (z-report.ts lists them with the day's figures; the CSV export writes them beside
 * its rows). The queries are in store/z-report-queries.ts.
 */
import { formatNaira } from '#shared/money';
import { countOf, nounFor } from '#shared/plural';
import { IF_MONEY_LEFT_THEIR_ACCOUNT, wrongAmountWords } from '#shared/report-words';
import type { SaleState } from '#shared/sales';
import { LEGACY_TILL_ID, referencePrefix } from '#shared/till-id';
import type { ExceptionFinding, ExceptionKind, ZReportView } from '#shared/views';
import type { InflowCaseKind } from '#main/store/csv-export-queries';
import type { Db } from '#main/store/database';
import {
  paidTwiceInflows,
  standingAboveLimitInflows,
  paidSaleChecks,
  salesOpenAtCutoff,
  unmatchedInflows,
  wrongAmountInflows,
  type MissingCase,
  type PaidLateCase,
  type Range,
  type ReversedCase,
} from '#main/store/z-report-queries';
import { lastCompleteSyncRun } from '#main/store/sync-runs-repo';
import {
  openUnreadableByProblem,
  unreadableCallbacks,
  type UnreadableCallbackCount,
} from '#main/store/unreadable-repo';
import { classifyContentType } from '#main/webhook/callback-parser';
import { shopLine, type Attribution } from './attribution';
import { registerAttributionSql } from './attribution-sql';
import { withResolutions } from './exception-resolutions';
import { outageSaleLines } from './outage-sales';
import { localClock, localDateTime, reportRange } from './report-range';
import {
  DEFAULT_EXCEPTION_LIMIT,
  DEFAULT_LISTING_LAG_MS,
  type ZReportOptions,
} from './report-options';

/**
 * The Z-report's exceptions of a range, with their resolutions, and nothing else of the report:
 * what the CSV export needs (building the whole report for them cost most of a month's CSV).
 * `without`: kinds left out, which the caller finds itself (the CSV's walk finds the inflow
 * cases, INFLOW_CASE_KINDS, as it writes their rows).
 */
export function buildReportExceptions(
  db: Db,
  options: ZReportOptions,
  without: ReadonlySet<ExceptionKind> = new Set(),
): ZReportView['exceptions'] {
  const range = reportRange(options);
  registerAttributionSql(db);
  return db.transaction(() => exceptionsOf(db, range, options, without))();
}

/**
 * Each finder with the kinds it finds, in the order the report lists the cases of one moment
 * (the list is sorted by time, stably: among cases of the same moment this order stands).
 */
const FINDERS: readonly {
  readonly kinds: readonly ExceptionKind[];
  readonly find: (cases: Cases, checks: PaidSaleChecks) => ExceptionFinding[];
}[] = [
  { kinds: ['reversed'], find: (cases, checks) => reversed(cases, checks.reversed) },
  { kinds: ['paid_late'], find: (cases, checks) => paidLate(cases, checks.paidLate) },
  { kinds: ['paid_twice'], find: (cases) => paidTwice(cases) },
  { kinds: ['standing_above_limit'], find: (cases) => standingAboveLimit(cases) },
  { kinds: ['wrong_amount'], find: (cases) => wrongAmounts(cases) },
  { kinds: ['unmatched_inflow'], find: (cases) => unmatched(cases) },
  {
    kinds: ['missing_from_provider'],
    find: (cases, checks) => missingFromProvider(cases, checks.missing),
  },
  { kinds: ['open_at_cutoff'], find: (cases) => openAtCutoff(cases) },
  { kinds: ['unreadable_rows'], find: (cases) => unreadableRows(cases.db, cases.zone) },
  {
    kinds: ['unreadable_callbacks'],
    find: (cases) => unreadableCallbacksOf(cases.db, cases.range),
  },
  {
    kinds: ['outage_not_seen', 'outage_confirmed', 'outage_assigned'],
    find: (cases) => outageSaleLines(cases.db, cases.range, cases.zone, cases.limit),
  },
];

/**
 * Where a kind stands among the cases of one moment (FINDERS' order): the CSV places a case
 * its walk found among the report's others by it.
 */
export function exceptionOrder(kind: ExceptionKind): number {
  return FINDERS.findIndex((finder) => finder.kinds.includes(kind));
}

/**
 * Whether an inflow the CSV's walk marked as a case (INFLOW_CASE_KINDS, by the conditions the
 * report's queries filter on) is one once its attribution is known: the rest of those queries'
 * conditions (WRONG_AMOUNT_SQL's kind, UNMATCHED_SQL's line, other income), said once more here
 * because the walk reads the attribution in JavaScript rather than filter on it in SQLite.
 */
export function inflowCaseHolds(
  kind: InflowCaseKind,
  attribution: Attribution,
  otherIncome: boolean,
): boolean {
  switch (kind) {
    case 'paid_twice':
      return true;
    case 'wrong_amount':
      return attribution.kind !== 'other-till' && !(otherIncome && attribution.kind === 'not-ours');
    case 'unmatched_inflow':
      return !otherIncome && shopLine(attribution) === 'not-ours';
  }
}

type PaidSaleChecks = ReturnType<typeof paidSaleChecks>;

export function exceptionsOf(
  db: Db,
  range: Range,
  options: ZReportOptions,
  without: ReadonlySet<ExceptionKind> = new Set(),
): ZReportView['exceptions'] {
  const lastComplete = lastCompleteSyncRun(db);
  const lagMs = options.listingLagMs ?? DEFAULT_LISTING_LAG_MS;
  const cases: Cases = {
    db,
    range,
    zone: options.timeZone,
    tillPrefix: referencePrefix(options.tillId ?? LEGACY_TILL_ID),
    limit: options.exceptionLimit ?? DEFAULT_EXCEPTION_LIMIT,
    otherIncome: options.otherIncome === true,
    standingAboveKobo: options.standingFlagAboveKobo ?? 0,
    now: options.now,
  };
  // One walk of the range's paid sales finds the paid late, the reversed and the unlisted ones.
  const checks = paidSaleChecks(
    db,
    range,
    lastComplete ? lastComplete.startedAt - lagMs : null,
    cases.limit,
  );
  const findings = FINDERS.filter((finder) => !finder.kinds.every((kind) => without.has(kind)))
    .flatMap((finder) => finder.find(cases, checks))
    .sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
  return withResolutions(db, findings);
}

/** What every exception query needs. */
interface Cases {
  readonly db: Db;
  readonly range: Range;
  readonly zone: string;
  readonly tillPrefix: string;
  readonly limit: number;
  /** Money no till of this shop made is other income (other-income.ts), not an exception. */
  readonly otherIncome: boolean;
  /** ZReportOptions.standingFlagAboveKobo; 0: off. */
  readonly standingAboveKobo: number;
  /** When the report is read: a sale of a day still running is open now. */
  readonly now: number;
}

/** How a sale had closed before a late payment came, as the end of a sentence. */
const CLOSED_AS: Readonly<Record<NonNullable<PaidLateCase['closedAs']>, string>> = {
  expired: 'after it had expired',
  cancelled: 'after it had been cancelled',
  failed_to_create: 'after the till had given it up',
};

/** What a person records once they have settled a case: the report's own button. */
const RECORD_IT_HERE = 'Then press "Record what was done" here and note what you did.';

function paidLate({ zone }: Cases, rows: readonly PaidLateCase[]): ExceptionFinding[] {
  return rows.map((row) => ({
    kind: 'paid_late',
    saleId: row.saleId,
    sessionId: row.sessionId,
    amountKobo: row.amountKobo,
    at: row.at,
    message: `Sale #${row.saleId} for ${formatNaira(row.amountKobo)} was paid at ${localClock(row.at, zone)}, ${row.closedAs === null ? 'after it had closed' : CLOSED_AS[row.closedAs]}.`,
    action: `Find the customer: if they left without the goods, give them the goods or refund the transfer. ${RECORD_IT_HERE}`,
  }));
}

function paidTwice({ db, range, limit, zone }: Cases): ExceptionFinding[] {
  return paidTwiceInflows(db, range, limit).map((row) => ({
    kind: 'paid_twice',
    saleId: row.saleId,
    sessionId: row.sessionId,
    amountKobo: row.amountKobo,
    at: row.at,
    message: `Customer paid twice: refund ${formatNaira(row.amountKobo)}. Sale #${row.saleId} (${formatNaira(row.saleKobo)}) was already paid by transfer ${row.paidSessionId}; transfer ${row.sessionId} at ${localClock(row.at, zone)} put ${formatNaira(row.amountKobo)} more into its account.`,
    action: `Send the customer ${formatNaira(row.amountKobo)} back, or give goods for it. ${RECORD_IT_HERE} A refund is recorded with its bank reference. If the customer disputes it, give the provider the session id.`,
  }));
}

function standingAboveLimit({
  db,
  range,
  limit,
  zone,
  standingAboveKobo: aboveKobo,
}: Cases): ExceptionFinding[] {
  if (aboveKobo <= 0) return [];
  return standingAboveLimitInflows(db, range, aboveKobo, limit).map((row) => ({
    kind: 'standing_above_limit',
    saleId: null,
    sessionId: row.sessionId,
    amountKobo: row.amountKobo,
    at: row.at,
    message: `Payment above ${formatNaira(aboveKobo)} into a standing account: check with the customer. ${formatNaira(row.amountKobo)} arrived in standing account ${row.accountNumber ?? row.reference ?? 'unknown'} at ${localClock(row.at, zone)}, by transfer ${row.sessionId}.`,
    action: `Ask the customer whether they meant to send ${formatNaira(row.amountKobo)}. If it was a slip, refund the difference or give goods for it. ${RECORD_IT_HERE} A refund is recorded with its bank reference.`,
  }));
}

function wrongAmounts({
  db,
  range,
  limit,
  zone,
  tillPrefix,
  otherIncome,
}: Cases): ExceptionFinding[] {
  return wrongAmountInflows(db, range, tillPrefix, limit, otherIncome).map((row) => {
    const clock = localClock(row.at, zone);
    const target =
      row.saleId === null
        ? `It was sent to reference ${row.reference ?? 'unknown'} at ${clock}.`
        : `It was sent for sale #${row.saleId} at ${clock}${row.expectedKobo === null ? '' : `; that sale asked for ${formatNaira(row.expectedKobo)}`}, or its account had already been paid.`;
    const retry =
      row.expectedKobo === null
        ? ''
        : ` If the sale is still unpaid, ask the customer to send exactly ${formatNaira(row.expectedKobo)}, or start a new sale.`;
    return {
      kind: 'wrong_amount',
      saleId: row.saleId,
      sessionId: row.sessionId,
      amountKobo: row.amountKobo,
      at: row.at,
      message: `${wrongAmountWords(row.amountKobo)}. ${target}`,
      action: `Nothing to record: the provider did not accept this payment, so the shop holds no money for it. ${IF_MONEY_LEFT_THEIR_ACCOUNT}${retry}`,
    };
  });
}

/** Money no till of this shop made: not this till's, not another till's, not a standing account's. */
function unmatched({ db, range, limit, zone, tillPrefix, otherIncome }: Cases): ExceptionFinding[] {
  if (otherIncome) return [];
  return unmatchedInflows(db, range, tillPrefix, limit).map((row) => ({
    kind: 'unmatched_inflow',
    saleId: null,
    sessionId: row.sessionId,
    amountKobo: row.amountKobo,
    at: row.at,
    message: `${formatNaira(row.amountKobo)} arrived at ${localClock(row.at, zone)} with reference ${row.reference ?? 'none'}, but no till of this shop made that reference: it matches no sale and no standing account here or on another till.`,
    action:
      'Check whether a static account made outside this app, or another system on the same merchant account, took this payment. If nobody can account for it, do not hand out goods or refunds for it: ask the provider about the session id.',
  }));
}

function missingFromProvider({ zone }: Cases, rows: readonly MissingCase[]): ExceptionFinding[] {
  return rows.map((row) => ({
    kind: 'missing_from_provider',
    saleId: row.saleId,
    sessionId: row.sessionId,
    amountKobo: row.amountKobo,
    at: row.at,
    message:
      row.listedStatus === null
        ? `Sale #${row.saleId} for ${formatNaira(row.amountKobo)} is marked paid at ${localDateTime(row.at, zone)}, but the provider's transaction list does not show that payment.`
        : `Sale #${row.saleId} for ${formatNaira(row.amountKobo)} is marked paid at ${localDateTime(row.at, zone)}, but the provider's transaction list shows that payment as ${row.listedStatus}.`,
    action:
      'Tick "Check every payment again" and press "Sync". If it is still not shown as successful, ask the customer for the transfer receipt and give the provider the session id before paying out this amount.',
  }));
}

/** An open sale's state, as the end of "is still ..." / "was still ...". */
const WAITING_WORDS: Readonly<Partial<Record<SaleState, string>>> = {
  creating: 'being created',
  awaiting_payment: 'waiting for payment',
  confirming: 'waiting for the bank to confirm a payment',
  wrong_amount: 'waiting for the exact amount after a wrong amount',
};

/**
 * Sales of the range still open at its end, or now while the day is still running: a report
 * read at 06:17 of a day that ends at midnight says "still waiting now", not "at the cut-off"
 * (that has not come yet).
 */
function openAtCutoff({ db, range, limit, zone, now }: Cases): ExceptionFinding[] {
  const dayIsOver = now >= range.toMs;
  return salesOpenAtCutoff(db, range, Math.min(now, range.toMs), limit).map((row) => {
    const waiting = WAITING_WORDS[row.stateAtEnd as SaleState] ?? 'open';
    const started = `Sale #${row.saleId} for ${formatNaira(row.amountKobo)}, started at ${localClock(row.at, zone)},`;
    return {
      kind: 'open_at_cutoff',
      saleId: row.saleId,
      sessionId: null,
      amountKobo: row.amountKobo,
      at: row.at,
      message: dayIsOver
        ? `${started} was still ${waiting} at the cut-off.`
        : `${started} is still ${waiting}. The day is not over yet.`,
      action:
        'Open the sale: if the customer says they paid, press "Customer says they paid" to check again; if they left, cancel it. A payment that still comes is recorded as paid late.',
    };
  });
}

function reversed({ zone }: Cases, rows: readonly ReversedCase[]): ExceptionFinding[] {
  return rows.map((row) => ({
    kind: 'reversed',
    saleId: row.saleId,
    sessionId: row.sessionId,
    amountKobo: row.amountKobo,
    at: row.at,
    message: `Sale #${row.saleId} for ${formatNaira(row.amountKobo)} was marked paid at ${localClock(row.at, zone)}, but since ${localDateTime(row.changedAt, zone)} the provider reports that payment as ${row.status}: it reversed the payment or no longer counts it as settled.`,
    action: `Do not count this money as received. Ask the provider about the session id. If the money does not come back, settle with the customer: the goods back or a new payment. ${RECORD_IT_HERE}`,
  }));
}

/** Distinct problems shown in one exception; the rest are summed up. */
const MAX_PROBLEMS_SHOWN = 5;

/**
 * The listing rows the till could not read and no later full sync has taken in. They may belong
 * to any day (their date may be what is unreadable), so every report shows them.
 */
function unreadableRows(db: Db, zone: string): ExceptionFinding[] {
  const problems = openUnreadableByProblem(db);
  if (problems.length === 0) return [];
  const total = problems.reduce((sum, p) => sum + p.count, 0);
  const firstSeen = Math.min(...problems.map((p) => p.firstSeenAt));
  const byCount = [...problems].sort((a, b) => b.count - a.count);
  const shown = byCount
    .slice(0, MAX_PROBLEMS_SHOWN)
    .map((p) => `${p.problem} (${countOf(p.count, 'row')})`);
  const rest = byCount.length - shown.length;
  return [
    {
      kind: 'unreadable_rows',
      saleId: null,
      sessionId: null,
      amountKobo: null,
      at: firstSeen,
      message: `${countOf(total, 'row')} of the provider's transaction list could not be read (first seen ${localDateTime(firstSeen, zone)}): ${shown.join('; ')}${rest > 0 ? `; and ${countOf(rest, 'other problem')}` : ''}. They are kept: nothing is lost, but these figures may be missing them.`,
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
  if (group.parseStatus === 'ok')
    return 'in a shape this till does not recognise (no reference or session id in it)';
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
function unreadableCallbacksOf(db: Db, range: Range): ExceptionFinding[] {
  const groups = unreadableCallbacks(db, range.fromMs, range.toMs);
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
      message: `${countOf(total, 'payment notification')} (${nounFor(total, 'callback')}) received in this period could not be read: ${kinds.join('; ')}. Each is kept as it was received.`,
      action:
        "Nothing is lost: the till confirms every payment with the provider itself. If this keeps happening, ask the provider's support what their callbacks send.",
    },
  ];
}
