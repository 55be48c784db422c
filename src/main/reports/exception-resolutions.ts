/**
 * Exceptions resolved with a record: every case of the end-of-day report gets a key that stays
 * the same from one report to the next (its kind and the sale or payment it concerns), and the
 * owner records against that key what was done about it. Re-resolving replaces the current
 * resolution and keeps the earlier ones in the log; reopening is a log entry too.
 */
import { formatIsoInZone } from '#shared/provider-time';
import {
  RESOLUTION_WORDS,
  STATUS_CELL,
  exceptionStatus,
  exceptionTitle,
  wrongAmountWords,
} from '#shared/report-words';
import type {
  ExceptionFinding,
  ExceptionKind,
  ExceptionResolution,
  ExceptionResolutionView,
  ReportException,
  ResolutionAction,
} from '#shared/views';
import type { Db } from '#main/store/database';
import {
  appendResolutionEntry,
  currentEntries,
  currentEntry,
  currentEntryReader,
  entryResolution,
  unreadableRowFirstSeenAt,
} from '#main/store/exception-resolutions-repo';
import { getInflowBySession } from '#main/store/inflows-repo';
import { getSale } from '#main/store/sales-repo';
import { unreadableCallbacks } from '#main/store/unreadable-repo';
import { AppError, type AppErrorCode } from '#shared/errors';

export type ExceptionResolutionErrorCode = Extract<
  AppErrorCode,
  'UNKNOWN_EXCEPTION' | 'BANK_REFERENCE_REQUIRED' | 'NOTE_REQUIRED'
>;

export class ExceptionResolutionError extends AppError<ExceptionResolutionErrorCode> {
  declare readonly field: 'key' | 'bankReference' | 'note';
  constructor(
    code: ExceptionResolutionErrorCode,
    message: string,
    field: 'key' | 'bankReference' | 'note',
  ) {
    super(code, message, { field });
    this.name = 'ExceptionResolutionError';
  }
}

type SubjectType = 'sale' | 'session' | 'since';

/**
 * What names each kind of case. A transfer the provider rejected or no sale matches is one
 * payment (a sale may receive several); the sale cases are one sale each; the unreadable
 * rows and callbacks are a group, named by when its oldest member arrived.
 */
const KEYED_BY: Readonly<Record<ExceptionKind, SubjectType>> = {
  paid_late: 'sale',
  reversed: 'sale',
  missing_from_provider: 'sale',
  open_at_cutoff: 'sale',
  wrong_amount: 'session',
  unmatched_inflow: 'session',
  unreadable_rows: 'since',
  unreadable_callbacks: 'since',
  paid_twice: 'session',
  standing_above_limit: 'session',
  outage_not_seen: 'sale',
  outage_confirmed: 'sale',
  outage_assigned: 'sale',
};

export function exceptionKey(
  finding: Pick<ExceptionFinding, 'kind' | 'saleId' | 'sessionId' | 'at'>,
): string {
  const preferred = KEYED_BY[finding.kind];
  if (preferred === 'sale' && finding.saleId !== null) {
    return `${finding.kind}:sale:${finding.saleId}`;
  }
  if (preferred !== 'since' && finding.sessionId !== null) {
    return `${finding.kind}:session:${finding.sessionId}`;
  }
  if (preferred !== 'since' && finding.saleId !== null) {
    return `${finding.kind}:sale:${finding.saleId}`;
  }
  return `${finding.kind}:since:${finding.at ?? 0}`;
}

export type ParsedExceptionKey =
  | { readonly kind: ExceptionKind; readonly type: 'sale'; readonly saleId: number }
  | { readonly kind: ExceptionKind; readonly type: 'session'; readonly sessionId: string }
  | { readonly kind: ExceptionKind; readonly type: 'since'; readonly at: number };

const KEY_PATTERN = /^([a-z_]+):(sale|session|since):([^:\s]{1,64})$/;

function isExceptionKind(kind: string): kind is ExceptionKind {
  return Object.hasOwn(KEYED_BY, kind);
}

/** The key's parts, or null when it is not a key this app makes. */
export function parseExceptionKey(key: string): ParsedExceptionKey | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const [, kind = '', type, value = ''] = match;
  if (!isExceptionKind(kind)) return null;
  switch (type) {
    case 'sale':
      return /^[1-9]\d{0,14}$/.test(value) ? { kind, type, saleId: Number(value) } : null;
    case 'session':
      return { kind, type, sessionId: value };
    case 'since':
      return /^\d{1,15}$/.test(value) ? { kind, type, at: Number(value) } : null;
    default:
      return null;
  }
}

/** Whether the sale, payment or group a key names is known to this till. */
function subjectExists(db: Db, parsed: ParsedExceptionKey): boolean {
  switch (parsed.type) {
    case 'sale':
      return getSale(db, parsed.saleId) !== undefined;
    case 'session':
      return getInflowBySession(db, parsed.sessionId) !== undefined;
    case 'since':
      if (parsed.kind === 'unreadable_rows') return unreadableRowFirstSeenAt(db, parsed.at);
      if (parsed.kind === 'unreadable_callbacks') {
        return unreadableCallbacks(db, parsed.at, parsed.at + 1).length > 0;
      }
      return false;
  }
}

/** The report's exceptions with their keys and what the owner recorded about each. */
export function withResolutions(db: Db, findings: readonly ExceptionFinding[]): ReportException[] {
  const keys = findings.map(exceptionKey);
  const current = currentEntries(db, keys);
  return findings.map((finding, index) => {
    const key = keys[index] ?? exceptionKey(finding);
    return { ...finding, key, resolution: entryResolution(current.get(key)) };
  });
}

export interface ResolveExceptionRequest {
  readonly key: string;
  readonly action: ResolutionAction;
  readonly bankReference?: string | null;
  readonly note?: string | null;
}

function knownKey(db: Db, key: string): string {
  const parsed = parseExceptionKey(key);
  if (!parsed || !subjectExists(db, parsed)) {
    throw new ExceptionResolutionError(
      'UNKNOWN_EXCEPTION',
      'This exception is not known to this till. Reload the report and try again.',
      'key',
    );
  }
  return key;
}

function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Records what was done; the current resolution, if any, is replaced and kept in the log. */
export function resolveException(
  db: Db,
  request: ResolveExceptionRequest,
  resolvedBy: string,
  now: number,
): ExceptionResolutionView {
  const key = knownKey(db, request.key);
  const bankReference = text(request.bankReference);
  const note = text(request.note);
  if (request.action === 'refunded' && bankReference === null) {
    throw new ExceptionResolutionError(
      'BANK_REFERENCE_REQUIRED',
      'Enter the bank reference of the refund transfer (it is on the transfer receipt).',
      'bankReference',
    );
  }
  if (request.action === 'other' && note === null) {
    throw new ExceptionResolutionError(
      'NOTE_REQUIRED',
      'Write a note saying what was done.',
      'note',
    );
  }
  const current = entryResolution(currentEntry(db, key));
  // A second press of Save records nothing new: the first record, its who and when, stands.
  if (
    current &&
    current.action === request.action &&
    current.bankReference === bankReference &&
    current.note === note
  ) {
    return { key, resolution: current };
  }
  const entry = appendResolutionEntry(db, {
    key,
    action: request.action,
    bankReference,
    note,
    recordedBy: resolvedBy,
    recordedAt: now,
  });
  return { key, resolution: entryResolution(entry) };
}

/** Opens a resolved case again (logged with who and when); an open one stays as it is. */
export function reopenException(
  db: Db,
  key: string,
  reopenedBy: string,
  now: number,
): ExceptionResolutionView {
  knownKey(db, key);
  if (entryResolution(currentEntry(db, key)) !== null) {
    appendResolutionEntry(db, {
      key,
      action: 'reopened',
      bankReference: null,
      note: null,
      recordedBy: reopenedBy,
      recordedAt: now,
    });
  }
  return { key, resolution: null };
}

// ---------------------------------------------------------------------------------------------
// The CSV's resolution columns

/** Appended to the CSV's columns: what each row's exception is and what was done about it. */
export const RESOLUTION_CSV_COLUMNS = [
  'exception',
  'resolution',
  'resolved_by',
  'resolved_at',
  'bank_reference',
  'note',
] as const;

/** What the CSV's cells of an exception read (a case its walk found has no sentences). */
export type CsvException = Pick<ReportException, 'kind' | 'amountKobo' | 'at' | 'resolution'>;

/**
 * An exception in the CSV, in the words of the till, the report and its PDF (one vocabulary,
 * report-words.ts): a wrong amount says what came and that it was not accepted; a sale still
 * waiting on a day not yet over is "still open now".
 */
export function exceptionCell(exception: CsvException, dayIsOver: boolean): string {
  return exception.kind === 'wrong_amount' && exception.amountKobo !== null
    ? wrongAmountWords(exception.amountKobo)
    : exceptionTitle(exception.kind, dayIsOver);
}

/** The CSV's resolution cell: what was done, or open, or information (report-words' table). */
export function resolutionCell(exception: CsvException): string {
  const status = exceptionStatus(exception);
  return status === 'resolved' && exception.resolution
    ? RESOLUTION_WORDS[exception.resolution.action]
    : STATUS_CELL[status === 'information' ? 'information' : 'open'];
}

/** The CSV cells of the exceptions a row concerns (all empty when none). */
export function resolutionCells(
  exceptions: readonly CsvException[],
  timeZone: string,
  dayIsOver: boolean,
): readonly (string | null)[] {
  if (exceptions.length === 0) return RESOLUTION_CSV_COLUMNS.map(() => null);
  // A row two cases concern (a sale paid late and then reversed) lists both, in order.
  const joined = (pick: (exception: CsvException) => string | null): string | null =>
    exceptions.every((exception) => pick(exception) === null)
      ? null
      : exceptions.map((exception) => pick(exception) ?? '').join('; ');
  return [
    joined((e) => exceptionCell(e, dayIsOver)),
    joined(resolutionCell),
    joined((e) => e.resolution?.resolvedBy ?? null),
    joined((e) => (e.resolution ? formatIsoInZone(e.resolution.resolvedAt, timeZone) : null)),
    joined((e) => e.resolution?.bankReference ?? null),
    joined((e) => e.resolution?.note ?? null),
  ];
}

/** The resolution recorded for each case asked (the CSV's walk asks it of each case it finds). */
export function resolutionReader(
  db: Db,
): (
  finding: Pick<ExceptionFinding, 'kind' | 'saleId' | 'sessionId' | 'at'>,
) => ExceptionResolution | null {
  const read = currentEntryReader(db);
  return (finding) => entryResolution(read(exceptionKey(finding)));
}

export interface CsvExceptionIndex {
  /**
   * The exceptions an inflow row concerns: its payment's, or its sale's when they name no
   * payment. `own`: a case of the row's payment the caller found itself, placed among the
   * payment's others as the report orders the cases of one moment (`order` of its kind).
   */
  forRow(sessionId: string, saleId: number | null, own?: CsvException): readonly CsvException[];
  /** The exceptions no row claimed so far: the CSV lists them as rows of their own. */
  unclaimed(): readonly ReportException[];
}

const NO_EXCEPTIONS: readonly ReportException[] = [];

export function csvExceptionIndex(
  exceptions: readonly ReportException[],
  order: (kind: ExceptionKind) => number = () => 0,
): CsvExceptionIndex {
  const bySession = new Map<string, ReportException[]>();
  const bySale = new Map<number, ReportException[]>();
  for (const exception of exceptions) {
    if (exception.sessionId !== null) {
      bySession.set(exception.sessionId, [
        ...(bySession.get(exception.sessionId) ?? []),
        exception,
      ]);
    } else if (exception.saleId !== null) {
      bySale.set(exception.saleId, [...(bySale.get(exception.saleId) ?? []), exception]);
    }
  }
  const claimed = new Set<ReportException>();
  return {
    forRow(sessionId, saleId, own) {
      const ofSession = bySession.get(sessionId);
      const ofSale = saleId === null ? undefined : bySale.get(saleId);
      if (!ofSession && !ofSale) return own ? [own] : NO_EXCEPTIONS;
      for (const exception of ofSession ?? []) claimed.add(exception);
      for (const exception of ofSale ?? []) claimed.add(exception);
      return [...withOwn(ofSession ?? [], own, order), ...(ofSale ?? [])];
    },
    unclaimed: () => exceptions.filter((exception) => !claimed.has(exception)),
  };
}

/** `own` placed in a time-sorted list as the report's stable sort by time would place it. */
function withOwn(
  sorted: readonly CsvException[],
  own: CsvException | undefined,
  order: (kind: ExceptionKind) => number,
): readonly CsvException[] {
  if (!own) return sorted;
  const at = own.at ?? 0;
  const after = sorted.findIndex(
    (e) => (e.at ?? 0) > at || ((e.at ?? 0) === at && order(e.kind) > order(own.kind)),
  );
  return after === -1 ? [...sorted, own] : [...sorted.slice(0, after), own, ...sorted.slice(after)];
}
