/**
 * The report's exception words as a person reads them, from a real SQLite file: plain sentences
 * (no brackets inside brackets), the cut-off words true for the time of day, how a sale paid
 * late had closed (expired or cancelled, as it happened), advice that names the report's own
 * buttons, and counts in the singular when there is one.
 */
import { describe, expect, it } from 'vitest';
import { countOf } from '#shared/plural';
import { EXCEPTION_WORDS, STILL_OPEN_NOW, exceptionTitle } from '#shared/report-words';
import type { SaleState } from '#shared/sales';
import type { ReportException } from '#shared/views';
import { buildZReport } from '#main/reports/z-report';
import type { Db } from '#main/store/database';
import { recordUnreadableRows } from '#main/store/unreadable-repo';
import { createTestDb } from '#support/database';
import { EXCEPTION_DAY_RANGE, EXCEPTION_DAY_START, seedExceptionDay } from '#support/exception-day';
import {
  insertCompleteSyncRun,
  insertInflowRow,
  insertSaleWithHistory,
  nextSessionId,
} from '#support/shop-history';

const HOUR = 3_600_000;
const at = (hours: number) => EXCEPTION_DAY_START + hours * HOUR;

/** How deep brackets go in a text: 1 for "(a)", 2 for "(a (b))". */
function bracketDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const c of text) {
    if (c === '(') deepest = Math.max(deepest, ++depth);
    if (c === ')') depth -= 1;
  }
  return deepest;
}

function report(db: Db, now: number) {
  return buildZReport(db, { ...EXCEPTION_DAY_RANGE, tillId: 'till-A', now });
}

function paidLateAfter(db: Db, closedAs: SaleState, hour: number): number {
  const sessionId = nextSessionId();
  const sale = insertSaleWithHistory(
    db,
    {
      amountKobo: 200_000,
      tillId: 'till-A',
      cashier: 'Ada',
      reference: `TILLA-C${hour}`,
      createdAt: at(hour),
    },
    [
      { at: at(hour) + 1000, state: 'awaiting_payment' },
      { at: at(hour) + 60_000, state: closedAs },
      { at: at(hour) + 120_000, state: 'paid_late', paidSessionId: sessionId },
    ],
  );
  insertInflowRow(
    db,
    {
      sessionId,
      reference: `TILLA-C${hour}`,
      amountKobo: 200_000,
      status: 'success',
      occurredAt: at(hour) + 120_000,
      saleId: sale.id,
      listed: true,
    },
    at(hour) + 120_000,
  );
  return sale.id;
}

function ofSale(exceptions: readonly ReportException[], saleId: number) {
  return exceptions.find((e) => e.saleId === saleId && e.kind === 'paid_late');
}

describe("the report's exception words", () => {
  it('say whether a late payment came after the sale expired or after it was cancelled', () => {
    const { db } = createTestDb();
    const expired = paidLateAfter(db, 'expired', 15);
    const cancelled = paidLateAfter(db, 'cancelled', 16);
    const { exceptions } = report(db, at(30));
    expect(ofSale(exceptions, expired)?.message).toMatch(/, after it had expired\.$/);
    expect(ofSale(exceptions, cancelled)?.message).toMatch(/, after it had been cancelled\.$/);
    for (const id of [expired, cancelled]) {
      expect(ofSale(exceptions, id)?.message).not.toMatch(/expired or|or been cancelled/);
      // The note is recorded on the report, with its own button.
      expect(ofSale(exceptions, id)?.action).toContain(
        'press "Record what was done" here and note what you did',
      );
    }
  });

  it('call a waiting sale "still open now" while the day runs, and "at the cut-off" after', () => {
    const { db } = createTestDb();
    const day = seedExceptionDay(db);
    const waiting = (now: number) =>
      report(db, now).exceptions.find(
        (e) => e.kind === 'open_at_cutoff' && e.saleId === day.openSaleId,
      );
    // 14:00 the sale started; the report read at 18:17 the same day: the cut-off has not come.
    const during = waiting(at(18) + 17 * 60_000);
    expect(during?.message).toMatch(/is still waiting for payment\. The day is not over yet\.$/);
    expect(during?.message).not.toMatch(/cut-off/);
    expect(exceptionTitle('open_at_cutoff', false)).toBe(STILL_OPEN_NOW);
    // The next morning, 06:17: the day is over.
    const after = waiting(at(24 + 6) + 17 * 60_000);
    expect(after?.message).toMatch(/was still waiting for payment at the cut-off\.$/);
    expect(exceptionTitle('open_at_cutoff', true)).toBe(EXCEPTION_WORDS.open_at_cutoff);
    expect(after?.action).toContain('press "Customer says they paid"');
  });

  it('read as plain sentences: no brackets inside brackets, no claim the bank returns money', () => {
    const { db } = createTestDb();
    seedExceptionDay(db);
    paidLateAfter(db, 'expired', 15);
    const saleId = paidLateAfter(db, 'cancelled', 16);
    // A wrong amount for a sale (with its expected amount), beside the seeded one for none.
    insertInflowRow(
      db,
      {
        sessionId: nextSessionId(),
        reference: 'TILLA-C16',
        amountKobo: 190_000,
        status: 'failed',
        occurredAt: at(16) + 30_000,
        saleId,
        listed: true,
      },
      at(16) + 30_000,
    );
    const runId = insertCompleteSyncRun(db, at(17));
    recordUnreadableRows(
      db,
      [{ position: 1, raw: '{}', problem: 'session_id: missing' }],
      runId,
      at(17),
    );
    const { exceptions } = report(db, at(30));
    expect(new Set(exceptions.map((e) => e.kind))).toEqual(
      new Set([
        'paid_late',
        'unmatched_inflow',
        'wrong_amount',
        'open_at_cutoff',
        'unreadable_rows',
      ]),
    );
    for (const e of exceptions) {
      expect(bracketDepth(e.message), e.message).toBeLessThan(2);
      expect(bracketDepth(e.action), e.action).toBeLessThan(2);
      expect(`${e.message} ${e.action}`).not.toMatch(/returns|sent back|refunded by the bank/);
    }
    const wrong = exceptions.filter((e) => e.kind === 'wrong_amount');
    expect(wrong.map((e) => e.message)).toContain(
      'Wrong amount ₦1,900.00: not accepted. It was sent for sale #' +
        `${saleId} at 16:00; that sale asked for ₦2,000.00, or its account had already been paid.`,
    );
    for (const e of wrong)
      expect(e.action).toContain(
        'If money left their account, they should ask their bank with the transfer receipt.',
      );
    const unreadable = exceptions.find((e) => e.kind === 'unreadable_rows');
    expect(unreadable?.message).toMatch(
      /^1 row of the provider's transaction list could not be read/,
    );
    expect(unreadable?.message).toContain('session_id: missing (1 row)');
  });

  it('count in the singular when there is one', () => {
    expect(countOf(1, 'transaction')).toBe('1 transaction');
    expect(countOf(0, 'transaction')).toBe('0 transactions');
    expect(countOf(1200, 'transaction')).toBe('1,200 transactions');
    expect(countOf(2, 'other problem')).toBe('2 other problems');
  });
});
