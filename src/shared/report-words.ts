/**
 * The end-of-day report's words and date format, for the two places it is shown: the report
 * screen and the PDF made in main. One definition, so that the file says what the screen says.
 */
import { formatNaira } from './money';
import type { ExceptionKind, ExceptionResolution, ResolutionAction, SyncRunView } from './views';

/**
 * A wrong amount, in the same words on the till, the customer display, the receipt, the report
 * and its CSV: what came, that it was not taken, and where the money goes.
 */
export function wrongAmountWords(receivedKobo: number): string {
  return `Wrong amount ${formatNaira(receivedKobo)}: not accepted, the bank returns it to the customer`;
}

/**
 * A sale's short number, the one a cashier reads aloud and Reprint asks for ("#12"); the long
 * reference stays in the details.
 */
export function saleNumberOf(saleId: number): string {
  return `#${saleId}`;
}

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
};

/**
 * Kinds that are information, not work: a rejected wrong amount is routine (the bank returns
 * it to the customer by itself), so the report lists it apart from what needs a person.
 */
export const INFORMATION_KINDS: ReadonlySet<ExceptionKind> = new Set(['wrong_amount']);

export function needsAPerson(kind: ExceptionKind): boolean {
  return !INFORMATION_KINDS.has(kind);
}

/**
 * Money a sale counted that the provider took back, and money the shop holds but owes back (a
 * customer who paid twice), come first, marked as errors.
 */
export const ERROR_KINDS: ReadonlySet<ExceptionKind> = new Set(['reversed', 'paid_twice']);

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
  return count === 1 ? '1 row could not be read' : `${count} rows could not be read`;
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
