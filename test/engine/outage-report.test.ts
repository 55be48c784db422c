/**
 * The end of an outage day (real sandbox, real SQLite file, fake clock): the report, its CSV
 * and its PDF list every outage sale, confirmed (with the delay), assigned by a person (who),
 * or its money not seen ("Outage sale: money not seen, follow up").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EXCEPTION_WORDS, needsAPerson } from '#shared/report-words';
import { businessDay } from '#shared/provider-time';
import { NEEDS_PERSON } from '#shared/sales';
import { buildCsvExport, CSV_COLUMNS } from '#main/reports/csv';
import { buildPdfExport } from '#main/reports/pdf/pdf-export';
import { buildZReport } from '#main/reports/z-report';
import { makeOutageAccount, nairaOf, takeOutageSale } from '#support/outage-account';
import { parseCsv } from '#support/parse-csv';
import { pdfText } from '#support/pdf-text';
import { createHarness, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ZONE = { timeZone: 'Africa/Lagos', cutoffHour: 0 };

describe('the report of an outage day', () => {
  it('lists each outage sale: confirmed with its delay, assigned by whom, or money not seen', async () => {
    const harness = (h = await createHarness({ live: true }));
    // The harness's clock starts at 10:00 in Lagos: the day's range holds every sale.
    const account = await makeOutageAccount(harness);
    const confirmed = takeOutageSale(harness, account, 150_000);
    const assigned = takeOutageSale(harness, account, 150_000);
    const missing = takeOutageSale(harness, account, 420_000);
    await harness.advance(42 * 60_000);
    await harness.transfer(account.accountNumber ?? '', nairaOf(150_001));
    const round = await harness.transfer(account.accountNumber ?? '', 1_500);
    await harness.settle();
    const alert = harness.alerts.find((a) => a.kind === NEEDS_PERSON);
    expect(alert?.sessionId).toBe(String(round['session_id']));
    await harness.advance(23 * 60_000);
    harness.engine.assignOutagePayment(
      { sessionId: String(round['session_id']), saleId: assigned.id },
      'Mama Ngozi',
    );

    const now = harness.scheduler.now();
    const day = businessDay(now, ZONE);
    const options = { ...ZONE, fromDay: day, toDay: day, now };
    const lines = buildZReport(harness.db, options).exceptions.filter((e) =>
      e.kind.startsWith('outage_'),
    );
    expect(lines.map((e) => [e.kind, e.saleId])).toEqual([
      ['outage_confirmed', confirmed.id],
      ['outage_assigned', assigned.id],
      ['outage_not_seen', missing.id],
    ]);
    const [first, second, third] = lines;
    expect(first?.message).toContain('was confirmed after the outage at');
    expect(first?.message).toContain('(42 minutes later)');
    expect(first?.message).toContain('asked to send exactly ₦1,500.01');
    expect(second?.message).toContain('was given its payment by Mama Ngozi at');
    expect(second?.message).toContain('(1 hour 5 minutes later)');
    expect(third?.message).toContain(`Sale #${missing.id} for ₦4,200.00`);
    expect(third?.message).toContain('has no payment seen for it yet');
    expect(EXCEPTION_WORDS.outage_not_seen).toBe('Outage sale: money not seen, follow up');
    expect(needsAPerson('outage_not_seen')).toBe(true);
    expect(needsAPerson('outage_confirmed')).toBe(false);

    // The CSV: each line on its sale's row (the two paid) or a row of its own (not seen).
    const csv = parseCsv(buildCsvExport(harness.db, { ...options }).csv.replace(/^\uFEFF/, ''));
    const exceptionColumn = CSV_COLUMNS.indexOf('exception');
    const cells = csv.slice(1).map((row) => row[exceptionColumn] ?? '');
    for (const kind of ['outage_confirmed', 'outage_assigned', 'outage_not_seen'] as const) {
      expect(cells.some((cell) => cell.includes(EXCEPTION_WORDS[kind]))).toBe(true);
    }

    // The PDF, as pdftotext reads it.
    const pdf = await buildPdfExport(harness.db, {
      ...options,
      shopName: 'Mama Put Store',
      environment: 'sandbox',
    });
    const text = pdfText(Buffer.from(pdf.base64, 'base64')).replace(/\s+/g, ' ');
    expect(text).toContain('Outage sale: money not seen, follow up');
    expect(text).toContain('Outage sale: confirmed after the outage');
    expect(text).toContain('Outage sale: assigned by a person');
    expect(text).toContain('Mama Ngozi');
  });
});
