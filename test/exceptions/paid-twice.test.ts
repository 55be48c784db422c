import { describe, expect, it } from 'vitest';
import { ERROR_KINDS, exceptionsInReportOrder } from '#shared/report-words';
import { resolveException } from '#main/reports/exception-resolutions';
import { buildZReport } from '#main/reports/z-report';
import { getSaleByReference } from '#main/store/sales-repo';
import { createTestDb } from '#support/database';
import { EXCEPTION_DAY_RANGE, EXCEPTION_DAY_START, seedExceptionDay } from '#support/exception-day';
import { insertInflowRow, nextSessionId } from '#support/shop-history';

const NOW = EXCEPTION_DAY_START + 20 * 3_600_000;

/** The exception day, and a second ₦1,000 transfer into its paid sale's account at 15:00. */
function paidTwiceDay() {
  const { db } = createTestDb();
  const day = seedExceptionDay(db);
  const sale = getSaleByReference(db, 'TILLA-P1');
  if (!sale) throw new Error('the exception day has no sale TILLA-P1');
  const extra = nextSessionId();
  insertInflowRow(
    db,
    {
      sessionId: extra,
      reference: 'TILLA-P1',
      amountKobo: 100_000,
      status: 'success',
      occurredAt: EXCEPTION_DAY_START + 15 * 3_600_000,
      saleId: sale.id,
      listed: true,
    },
    NOW,
  );
  const report = () => buildZReport(db, { ...EXCEPTION_DAY_RANGE, now: NOW });
  return { db, day, sale, extra, report };
}

describe('a customer who paid twice, in the report', () => {
  it('is an exception of its own naming the refund, the sale and both transfers, listed first', () => {
    const { sale, extra, day, report } = paidTwiceDay();
    const found = report().exceptions.filter((e) => e.kind === 'paid_twice');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      saleId: sale.id,
      sessionId: extra,
      amountKobo: 100_000,
      key: `paid_twice:session:${extra}`,
      resolution: null,
    });
    expect(found[0]?.message).toMatch(/^Customer paid twice: refund ₦1,000\.00\. /);
    expect(found[0]?.message).toContain(day.paidSessionId);
    expect(ERROR_KINDS.has('paid_twice')).toBe(true);
    expect(exceptionsInReportOrder(report().exceptions)[0]?.kind).toBe('paid_twice');
    // The payment that paid the sale is no exception.
    expect(report().exceptions.some((e) => e.sessionId === day.paidSessionId)).toBe(false);
  });

  it('is resolved through the exceptions record: refunded needs the bank reference', () => {
    const { db, extra, report } = paidTwiceDay();
    const key = `paid_twice:session:${extra}`;
    expect(() => resolveException(db, { key, action: 'refunded' }, 'owner', NOW)).toThrow(
      /bank reference/,
    );
    resolveException(db, { key, action: 'refunded', bankReference: 'NIP-REF-77' }, 'owner', NOW);
    expect(report().exceptions.find((e) => e.key === key)?.resolution).toMatchObject({
      action: 'refunded',
      bankReference: 'NIP-REF-77',
      resolvedBy: 'owner',
    });
  });
});
