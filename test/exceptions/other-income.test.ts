import { describe, expect, it } from 'vitest';
import { settingsSchema } from '#shared/settings-schema';
import type { ZReportView } from '#shared/views';
import { buildCsvExport } from '#main/reports/csv';
import { buildZReport } from '#main/reports/z-report';
import { createTestDb } from '#support/database';
import { EXCEPTION_DAY_RANGE, EXCEPTION_DAY_START, seedExceptionDay } from '#support/exception-day';

const NOW = EXCEPTION_DAY_START + 20 * 3_600_000;

function occurrences(report: ZReportView, sessionId: string): number {
  return (
    report.exceptions.filter((e) => e.sessionId === sessionId).length +
    (report.otherIncome?.transfers.filter((t) => t.sessionId === sessionId).length ?? 0)
  );
}

describe('other income on this account (Settings: report.otherIncome)', () => {
  it('off (the default): money no till of this shop made stays a case for a person, each once', () => {
    const { db } = createTestDb();
    const day = seedExceptionDay(db);
    const report = buildZReport(db, { ...EXCEPTION_DAY_RANGE, now: NOW });
    expect(report.otherIncome ?? null).toBeNull();
    const kinds = report.exceptions.map((e) => e.kind);
    expect(kinds).toContain('unmatched_inflow');
    expect(kinds).toContain('wrong_amount');
    expect(occurrences(report, day.unmatchedSessionId)).toBe(1);
    expect(occurrences(report, day.rejectedSessionId)).toBe(1);
  });

  it('on: listed apart as other income, counted apart from the sales, never in "Needs a person"', () => {
    const { db } = createTestDb();
    const day = seedExceptionDay(db);
    const off = buildZReport(db, { ...EXCEPTION_DAY_RANGE, now: NOW });
    const report = buildZReport(db, { ...EXCEPTION_DAY_RANGE, now: NOW, otherIncome: true });
    expect(report.exceptions.map((e) => e.kind).sort()).toEqual(['open_at_cutoff', 'paid_late']);
    expect(report.otherIncome).toMatchObject({
      success: { count: 1, amountKobo: 730_050 },
      failed: { count: 1, amountKobo: 5_000 },
    });
    expect(report.otherIncome?.transfers.map((t) => [t.sessionId, t.status])).toEqual([
      [day.unmatchedSessionId, 'success'],
      [day.rejectedSessionId, 'failed'],
    ]);
    // A failed transfer appears once, here; the shop's own figures do not move.
    expect(occurrences(report, day.rejectedSessionId)).toBe(1);
    expect(occurrences(report, day.unmatchedSessionId)).toBe(1);
    expect(report.shop).toEqual(off.shop);
    expect(report.shop.notOurs).toEqual(report.otherIncome?.success);
    // The CSV marks no exception on those rows either.
    const csv = buildCsvExport(db, { ...EXCEPTION_DAY_RANGE, otherIncome: true }).csv;
    expect(csv).not.toContain('No till of this shop made it');
  });

  it('is a validated Settings choice, off unless chosen', () => {
    expect(settingsSchema.parse({}).report.otherIncome).toBe(false);
    expect(settingsSchema.parse({ report: { otherIncome: true } }).report.otherIncome).toBe(true);
    expect(settingsSchema.safeParse({ report: { otherIncome: 'yes' } }).success).toBe(false);
  });
});
