/**
 * The end-of-day report's words and date format, for the two places it is shown: the report
 * screen and the PDF made in main. One definition, so that the file says what the screen says.
 */
import { formatNaira } from './money';
import { countOf } from './plural';
import type { ExceptionKind, ExceptionResolution, ResolutionAction, SyncRunView } from './views';

/**
 * A wrong amount, in the same words on the till, the report and its CSV and PDF: what came and
 * that it was not accepted. The provider's interface says only that such a payment is rejected
 * (no success callback); it promises nothing about where the money goes, so neither do we.
 */
export function wrongAmountWords(receivedKobo: number): string {
  return `Wrong amount ${formatNaira(receivedKobo)}: not accepted`;
}

/** What a customer whose wrong amount was not accepted does if the money left their account. */
export const IF_MONEY_LEFT_THEIR_ACCOUNT =
  'If money left their account, they should ask their bank with the transfer receipt.';

/** The same advice on the customer display, said to the customer. */
export const IF_MONEY_LEFT_YOUR_ACCOUNT =
  'If money left your account, ask your bank with your transfer receipt.';

/**
 * A sale's short number, the one a cashier reads aloud and Reprint asks for ("#12"); the long
 * reference stays in the details.
 */
export function saleNumberOf(saleId: number): string {
  return `#${saleId}`;
}

/**
 * Whether a kind of exception needs a person: the one table the report screen, its PDF and its
 * CSV read, so that the three give one answer. Errors (money a sale counted that the provider
 * took back, money the shop holds but owes back) need a person and come first; information
 * needs nobody: a wrong amount was not accepted, so the shop holds nothing to settle.
 */
export type ExceptionCategory = 'error' | 'person' | 'information';

export const EXCEPTION_CATEGORY: Readonly<Record<ExceptionKind, ExceptionCategory>> = {
  reversed: 'error',
  paid_twice: 'error',
  paid_late: 'person',
  unmatched_inflow: 'person',
  missing_from_provider: 'person',
  open_at_cutoff: 'person',
  unreadable_rows: 'person',
  unreadable_callbacks: 'person',
  standing_above_limit: 'person',
  outage_not_seen: 'person',
  wrong_amount: 'information',
  outage_confirmed: 'information',
  outage_assigned: 'information',
};

export function needsAPerson(kind: ExceptionKind): boolean {
  return EXCEPTION_CATEGORY[kind] !== 'information';
}

export const ERROR_KINDS: ReadonlySet<ExceptionKind> = new Set(
  (Object.keys(EXCEPTION_CATEGORY) as ExceptionKind[]).filter(
    (kind) => EXCEPTION_CATEGORY[kind] === 'error',
  ),
);

/** The headings the report screen and the PDF list exceptions under. */
export const NEEDS_A_PERSON_HEADING = 'Needs a person';
export const FOR_INFORMATION_HEADING = 'For information';

/** Where an exception stands: a person's case open or resolved, or information only. */
export type ExceptionStatus = 'open' | 'resolved' | 'information';

export function exceptionStatus(exception: {
  readonly kind: ExceptionKind;
  readonly resolution: ExceptionResolution | null;
}): ExceptionStatus {
  if (exception.resolution) return 'resolved';
  return needsAPerson(exception.kind) ? 'open' : 'information';
}

/** An unresolved exception's line on the screen and in the PDF. */
export const STATUS_LINE: Readonly<Record<Exclude<ExceptionStatus, 'resolved'>, string>> = {
  open: 'Open: nothing recorded yet.',
  information: 'For information: nobody needs to act.',
};

/** The same in the CSV's resolution column. */
export const STATUS_CELL: Readonly<Record<Exclude<ExceptionStatus, 'resolved'>, string>> = {
  open: 'Open',
  information: 'For information',
};

export const EXCEPTION_WORDS: Readonly<Record<ExceptionKind, string>> = {
  paid_late: 'Paid late',
  wrong_amount: 'Wrong amount',
  unmatched_inflow: 'No till of this shop made it',
  missing_from_provider: 'Not in the bank listing',
  open_at_cutoff: 'Still open at cut-off',
  reversed: 'Reversed by the provider',
  unreadable_rows: 'Unreadable bank rows',
  unreadable_callbacks: 'Unreadable callbacks',
  paid_twice: 'Customer paid twice',
  standing_above_limit: 'Large payment into a standing account',
  outage_not_seen: 'Outage sale: money not seen, follow up',
  outage_confirmed: 'Outage sale: confirmed after the outage',
  outage_assigned: 'Outage sale: assigned by a person',
};

/** A sale still waiting while its day is running: its cut-off has not come yet. */
export const STILL_OPEN_NOW = 'Still open now';

/**
 * An exception's title: the kind's words, except that a sale waiting on a day not yet over is
 * "still open now", not "at cut-off" (the cut-off has not come).
 */
export function exceptionTitle(kind: ExceptionKind, dayIsOver: boolean): string {
  return kind === 'open_at_cutoff' && !dayIsOver ? STILL_OPEN_NOW : EXCEPTION_WORDS[kind];
}

/** A report made before its range ended is the report of a day still running. */
export function reportDayIsOver(report: {
  readonly generatedAt: number;
  readonly toMs: number;
}): boolean {
  return report.generatedAt >= report.toMs;
}

/** The report's exceptions in the order it lists them: errors first, then the rest as found. */
export function exceptionsInReportOrder<T extends { readonly kind: ExceptionKind }>(
  exceptions: readonly T[],
): readonly T[] {
  return [
    ...exceptions.filter((e) => ERROR_KINDS.has(e.kind)),
    ...exceptions.filter((e) => !ERROR_KINDS.has(e.kind)),
  ];
}

export const RESOLUTION_WORDS: Readonly<Record<ResolutionAction, string>> = {
  refunded: 'Refunded by transfer',
  goods_given: 'Goods given',
  credited: 'Customer credited',
  other: 'Other',
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A moment as people in the shop read it (en-NG, 24-hour), in the shop's zone. */
export function formatDateTime(ms: number, timeZone = 'Africa/Lagos'): string {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-NG', {
      dateStyle: 'medium',
      timeStyle: 'medium',
      hour12: false,
      timeZone,
    });
    formatters.set(timeZone, found);
  }
  return found.format(ms);
}

/** One hour of the day as "09:00–10:00". */
export function hourLabel(hour: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(hour)}:00–${two((hour + 1) % 24)}:00`;
}

export function rowsCouldNotBeRead(count: number): string {
  return `${countOf(count, 'row')} could not be read`;
}

export function describeLastSync(run: SyncRunView | null, timeZone: string): string {
  if (!run) return 'Not synced with the bank yet.';
  const at = run.finishedAt ?? run.startedAt;
  const state = run.status === 'complete' ? 'complete' : 'not finished';
  const unreadable = run.unreadable > 0 ? `; ${rowsCouldNotBeRead(run.unreadable)}` : '';
  return `Last synced at ${formatDateTime(at, timeZone)} (${state}${unreadable})${pageSizeNote(run)}`;
}

/** Said when the provider gives fewer rows a page than the till asks for (a capped listing). */
export function pageSizeNote(run: SyncRunView): string {
  const size = run.providerPageSize ?? null;
  if (size === null) return '';
  const asked = run.pageLimit ?? null;
  return `. The bank's list gives ${size} rows a page${asked === null ? '' : ` (${asked} asked)`}: the till reads it in pages of that size.`;
}

/** One line for the screen, the printed report and the PDF: what was done, by whom, when. */
export function describeResolution(resolution: ExceptionResolution, timeZone: string): string {
  const reference =
    resolution.bankReference === null ? '' : ` (bank reference ${resolution.bankReference})`;
  return `${RESOLUTION_WORDS[resolution.action]}${reference} · by ${resolution.resolvedBy} · ${formatDateTime(resolution.resolvedAt, timeZone)}`;
}

/** The period line above the figures: days, the exact range and the zone. */
export function describePeriod(report: {
  readonly fromDay: string;
  readonly toDay: string;
  readonly fromMs: number;
  readonly toMs: number;
  readonly timeZone: string;
  readonly cutoffHour: number;
}): string {
  const days =
    report.fromDay === report.toDay ? report.fromDay : `${report.fromDay} to ${report.toDay}`;
  return `${days} · from ${formatDateTime(report.fromMs, report.timeZone)} to ${formatDateTime(report.toMs, report.timeZone)} (${report.timeZone}, day starts ${String(report.cutoffHour).padStart(2, '0')}:00)`;
}
