/**
 * CSV export of the inflows of a range of business days: one row per inflow, RFC 4180.
 *
 * Columns, in order:
 *   session_id          the provider's NIP session id (30 digits, text)
 *   date                when the provider says it happened, ISO 8601 with the zone's offset,
 *                       e.g. 2026-11-22T09:05:00+01:00
 *   status              success | failed | pending | unknown
 *   amount_naira        the amount in Naira with two decimals, exact from kobo (1500.00)
 *   external_reference  the reference of the virtual account it was paid into
 *   sale_id             the local sale it paid, empty when none
 *   till                the till of this shop that made it: the reference prefix of that till
 *                       (its till id's letters and digits, upper-cased, e.g. TILLA7K2), the
 *                       same in every till's export; empty for money no till of the shop made
 *   till_attribution    whose money it is, in the report's words (attribution.ts): This till |
 *                       Other till of this shop | Standing account | Not made by any till of
 *                       this shop
 *   cashier             the cashier of that sale, empty when none
 *   source              how this till first heard of it: callback | poll | listing; `report` on
 *                       a row of its own for an exception no inflow row of the range concerns
 *                       (an open sale, unreadable rows...): no status and no amount there, so
 *                       the amount column still sums the inflows only
 *   exception           the report's exception(s) the row concerns, in the report's words
 *                       (report-words.ts: "Paid late", "Wrong amount ₦1,900.00: not accepted",
 *                       "Still open now" while the day runs, ...; several joined with '; '),
 *                       empty when none
 *   resolution          Open (a person's case, nothing recorded), For information (nobody needs
 *                       to act: report-words' EXCEPTION_CATEGORY, as the report and the PDF), or
 *                       what was done in the report's words (Refunded by transfer, Goods given,
 *                       Customer credited, Other)
 *   resolved_by         who recorded the resolution
 *   resolved_at         when, ISO 8601 like date
 *   bank_reference      the refund transfer's bank reference (refunded)
 *   note                the owner's note
 *
 * The file starts with a UTF-8 byte-order mark (CSV_BOM): without it Excel reads the file in the
 * PC's legacy code page and garbles every non-ASCII character (Ọlá, ₦). LibreOffice, Sheets and
 * RFC 4180 readers that know UTF-8 skip it.
 *
 * Records end in CRLF; a field is quoted (quotes doubled) when it holds a comma, a quote, CR or
 * LF. Spreadsheet formula injection: a text field starting with = + - @ TAB or CR gets a leading
 * apostrophe, so Excel, LibreOffice and Sheets show it as text instead of running it. The
 * numbers we write ourselves (amount_naira, sale_id) are never prefixed: they are digits we
 * produced, amounts are never negative here, and a prefixed number would stop being a number.
 */
import { koboToDecimalString } from '#shared/money';
import { formatIsoInZone } from '#shared/provider-time';
import { LEGACY_TILL_ID, referencePrefix } from '#shared/till-id';
import type { CsvExportView } from '#shared/views';
import {
  CSV_ROW as C,
  INFLOW_CASE_KINDS,
  csvInflowPages,
  type InflowCaseKind,
} from '#main/store/csv-export-queries';
import type { Db } from '#main/store/database';
import { SHOP_LINE_WORDS, attributeReference, shopLine } from './attribution';
import {
  RESOLUTION_CSV_COLUMNS,
  csvExceptionIndex,
  resolutionCells,
  resolutionReader,
  type CsvException,
} from './exception-resolutions';
import { isoInZoneFn, reportRange, type DayRangeOptions } from './report-range';
import { buildReportExceptions, exceptionOrder, inflowCaseHolds } from './report-exceptions';
import { DEFAULT_EXCEPTION_LIMIT, type ZReportOptions } from './report-options';

export const CSV_COLUMNS = [
  'session_id',
  'date',
  'status',
  'amount_naira',
  'external_reference',
  'sale_id',
  'till',
  'till_attribution',
  'cashier',
  'source',
  ...RESOLUTION_CSV_COLUMNS,
] as const;

/** U+FEFF, the first character of every export (see above). */
export const CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One text field, guarded against formula injection and quoted when needed. */
export function csvText(value: string | null): string {
  if (value === null) return '';
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** csvText remembering its answers: for the columns that take a few values over many rows. */
function memoCsvText(): (value: string | null) => string {
  const seen = new Map<string, string>();
  return (value) => {
    if (value === null) return '';
    let text = seen.get(value);
    if (text === undefined) {
      text = csvText(value);
      seen.set(value, text);
    }
    return text;
  };
}

/** A number this app produced (an id, an amount): written as is. */
export function csvNumber(value: number | string | null): string {
  return value === null ? '' : String(value);
}

/** The name of a report file of a range of days: one name pattern for the CSV and the PDF. */
export function reportFileName(fromDay: string, toDay: string, extension: 'csv' | 'pdf'): string {
  return fromDay === toDay
    ? `transfer-till-${fromDay}.${extension}`
    : `transfer-till-${fromDay}-to-${toDay}.${extension}`;
}

export function csvFilename(fromDay: string, toDay: string): string {
  return reportFileName(fromDay, toDay, 'csv');
}

/** The range, and this till's id so that the CSV's exceptions are the report's. */
export type CsvExportOptions = DayRangeOptions &
  Pick<ZReportOptions, 'tillId' | 'otherIncome' | 'standingFlagAboveKobo'> & {
    /** When the file is made: open sales of a day still running are open now. Default: the range's end. */
    readonly now?: number;
  };

export function buildCsvExport(db: Db, options: CsvExportOptions): CsvExportView {
  const { toMs } = reportRange(options);
  // The report's exceptions of the range, judged at now as the report is.
  const now = options.now ?? toMs;
  // The walk finds the inflow cases as it writes their rows; the report's queries find the rest.
  // More of a kind than the report lists: which ones it lists is its queries' order, so then
  // they find every kind (rare: a month of hundreds of such cases).
  const lines = writeLines(db, options, now, true) ?? writeLines(db, options, now, false);
  return {
    filename: csvFilename(options.fromDay, options.toDay),
    csv: `${CSV_BOM}${lines.join('\r\n')}\r\n`,
    rows: lines.length - 1,
  };
}

/** The file's lines, or null when the walk found more cases of a kind than the report lists. */
function writeLines(
  db: Db,
  options: CsvExportOptions,
  now: number,
  walkFindsInflowCases: true,
): string[] | null;
function writeLines(
  db: Db,
  options: CsvExportOptions,
  now: number,
  walkFindsInflowCases: false,
): string[];
function writeLines(
  db: Db,
  options: CsvExportOptions,
  now: number,
  walkFindsInflowCases: boolean,
): string[] | null {
  const { fromMs, toMs } = reportRange(options);
  const iso = isoInZoneFn(fromMs, toMs, options.timeZone);
  const lines = [CSV_COLUMNS.join(',')];
  const dayIsOver = now >= toMs;
  const exceptions = csvExceptionIndex(
    buildReportExceptions(
      db,
      { ...options, now },
      new Set(walkFindsInflowCases ? INFLOW_CASE_KINDS : []),
    ),
    exceptionOrder,
  );
  const tillPrefix = referencePrefix(options.tillId ?? LEGACY_TILL_ID);
  const otherIncome = options.otherIncome === true;
  const found = new Map<InflowCaseKind, number>();
  const resolutionOf = resolutionReader(db);
  // Most rows concern no exception: their resolution cells are the same empty ones.
  const noResolution = resolutionCells([], options.timeZone, dayIsOver).map(csvText).join(',');
  // Status, source, cashier, till and attribution take a few values a month: each is quoted
  // and guarded once, not once a row.
  const cell = memoCsvText();
  for (const page of csvInflowPages(db, { fromMs, toMs })) {
    for (const row of page) {
      const sessionId = row[C.sessionId];
      const saleId = row[C.saleId];
      const externalReference = row[C.externalReference];
      const attribution = attributeReference(externalReference, {
        tillPrefix,
        localSale: row[C.localSale] === 1,
        localStandingAccount: row[C.localCounter] === 1,
      });
      const kind = walkFindsInflowCases ? row[C.inflowCase] : null;
      let own: CsvException | undefined;
      if (kind !== null && inflowCaseHolds(kind, attribution, otherIncome)) {
        const count = (found.get(kind) ?? 0) + 1;
        if (count > DEFAULT_EXCEPTION_LIMIT) return null;
        found.set(kind, count);
        const at = row[C.occurredAt];
        const resolution = resolutionOf({ kind, saleId, sessionId, at });
        own = { kind, amountKobo: row[C.amountKobo], at, resolution };
      }
      const concerns = exceptions.forRow(sessionId, saleId, own);
      const resolution =
        concerns.length === 0
          ? noResolution
          : resolutionCells(concerns, options.timeZone, dayIsOver).map(csvText).join(',');
      lines.push(
        [
          csvText(sessionId),
          csvText(iso(row[C.occurredAt])),
          cell(row[C.status]),
          koboToDecimalString(row[C.amountKobo]),
          csvText(externalReference),
          csvNumber(saleId),
          cell(attribution.tillPrefix),
          cell(SHOP_LINE_WORDS[shopLine(attribution)]),
          cell(row[C.cashier]),
          cell(row[C.source]),
          resolution,
        ].join(','),
      );
    }
  }
  for (const exception of exceptions.unclaimed()) {
    lines.push(
      [
        csvText(exception.sessionId),
        csvText(exception.at === null ? null : formatIsoInZone(exception.at, options.timeZone)),
        '',
        '',
        '',
        csvNumber(exception.saleId),
        '',
        '',
        '',
        'report',
        ...resolutionCells([exception], options.timeZone, dayIsOver).map(csvText),
      ].join(','),
    );
  }
  return lines;
}
