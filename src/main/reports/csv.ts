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
 *   till                the till of that sale, empty when none
 *   cashier             the cashier of that sale, empty when none
 *   source              how this till first heard of it: callback | poll | listing
 *
 * Records end in CRLF; a field is quoted (quotes doubled) when it holds a comma, a quote, CR or
 * LF. Spreadsheet formula injection: a text field starting with = + - @ TAB or CR gets a leading
 * apostrophe, so Excel, LibreOffice and Sheets show it as text instead of running it. The
 * numbers we write ourselves (amount_naira, sale_id) are never prefixed: they are digits we
 * produced, amounts are never negative here, and a prefixed number would stop being a number.
 */
import { koboToDecimalString } from '../../shared/money';
import type { CsvExportView } from '../../shared/views';
import type { Db } from '../store/database';
import { isoInZoneFn, reportRange, type DayRangeOptions } from './report-range';

export const CSV_COLUMNS = [
  'session_id',
  'date',
  'status',
  'amount_naira',
  'external_reference',
  'sale_id',
  'till',
  'cashier',
  'source',
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One text field, guarded against formula injection and quoted when needed. */
export function csvText(value: string | null): string {
  if (value === null) return '';
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** A number this app produced (an id, an amount): written as is. */
export function csvNumber(value: number | string | null): string {
  return value === null ? '' : String(value);
}

export function csvFilename(fromDay: string, toDay: string): string {
  return fromDay === toDay
    ? `transfer-till-${fromDay}.csv`
    : `transfer-till-${fromDay}-to-${toDay}.csv`;
}

interface ExportRow {
  readonly sessionId: string;
  readonly occurredAt: number;
  readonly status: string;
  readonly amountKobo: number;
  readonly externalReference: string | null;
  readonly saleId: number | null;
  readonly tillId: string | null;
  readonly cashier: string | null;
  readonly source: string;
}

export const CSV_SQL = `SELECT i.session_id AS sessionId, i.occurred_at AS occurredAt, i.status,
    i.amount_kobo AS amountKobo, i.external_reference AS externalReference, i.sale_id AS saleId,
    s.till_id AS tillId, s.cashier, i.source
  FROM inflows i LEFT JOIN sales s ON s.id = i.sale_id
  WHERE i.occurred_at >= ? AND i.occurred_at < ?
  ORDER BY i.occurred_at, i.status, i.amount_kobo, i.id`;

export function buildCsvExport(db: Db, options: DayRangeOptions): CsvExportView {
  const { fromMs, toMs } = reportRange(options);
  const iso = isoInZoneFn(fromMs, toMs, options.timeZone);
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of db.prepare(CSV_SQL).iterate(fromMs, toMs) as IterableIterator<ExportRow>) {
    lines.push(
      [
        csvText(row.sessionId),
        csvText(iso(row.occurredAt)),
        csvText(row.status),
        csvNumber(koboToDecimalString(row.amountKobo)),
        csvText(row.externalReference),
        csvNumber(row.saleId),
        csvText(row.tillId),
        csvText(row.cashier),
        csvText(row.source),
      ].join(','),
    );
  }
  return {
    filename: csvFilename(options.fromDay, options.toDay),
    csv: `${lines.join('\r\n')}\r\n`,
    rows: lines.length - 1,
  };
}
