import { afterEach, describe, expect, it } from 'vitest';
import { advanceEngine } from '#support/engine-advance';
import { listSaleEvents } from '#main/store/sales-repo';
import { createHarness, type Harness, type HarnessOptions } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SECOND = 1_000;
const MINUTE = 60_000;

function causes(harness: Harness, saleId: number): string[] {
  return listSaleEvents(harness.db, saleId).map((e) => `${e.toState}:${e.cause}`);
}

/**
 * A 2-minute sale whose callbacks never come; the customer pays at 101 s, after the last
 * clean safety-net check, and from 100 s on the provider fails every request (`fault`).
 */
async function paidJustBeforeAFailingDeadline(
  fault: Record<string, number>,
  options: HarnessOptions = {},
) {
  const harness = (h = await createHarness({
    live: true,
    settings: { expiryMinutes: 2 },
    ...options,
  }));
  await harness.control('/personality', { callbacks: 'never' });
  const sale = await harness.engine.createSale({ amountKobo: 45_000 });
  await advanceEngine(harness, 100 * SECOND);
  await harness.control('/faults', fault);
  const tx = await harness.transfer(sale.accountNumber ?? '', 450);
  expect(tx).toMatchObject({ status: 'success' });
  await advanceEngine(harness, 25 * SECOND); // past the final check at 125 s
  return { harness, sale, sessionId: String(tx['session_id']) };
}

describe('a deadline never loses a payment', () => {
  it('a status error at the deadline keeps the sale open; the payment ends paid, not late', async () => {
    const { harness, sale, sessionId } = await paidJustBeforeAFailingDeadline({ error_rate: 1 });
    expect(harness.engine.getSale(sale.id)).toMatchObject({
      state: 'confirming',
      reason: expect.stringContaining('Checking with the provider') as string,
    });
    await harness.control('/faults', { error_rate: 0 });
    await advanceEngine(harness, 2 * SECOND); // the backoff's first step after the final check
    expect(harness.engine.getSale(sale.id)).toMatchObject({
      state: 'paid',
      paidSessionId: sessionId,
    });
    expect(causes(harness, sale.id)).toEqual([
      'creating:cashier',
      'awaiting_payment:account-created',
      'confirming:deadline-unclear',
      'paid:poll-confirmed',
    ]);
    expect(harness.alerts.map((a) => a.kind)).not.toContain('paid_late');
  });

  it('a status timeout at the deadline keeps the sale open too', async () => {
    const { harness, sale } = await paidJustBeforeAFailingDeadline(
      { timeout_rate: 1, timeout_hold_ms: 400 },
      { clientTimeoutMs: 150 },
    );
    expect(harness.engine.getSale(sale.id).state).toBe('confirming');
    await harness.control('/faults', { timeout_rate: 0 });
    await advanceEngine(harness, 2 * SECOND);
    expect(harness.engine.getSale(sale.id).state).toBe('paid');
  });

  it('still unclear when the grace ends: expired with a warning; the money found later is paid', async () => {
    const { harness, sale, sessionId } = await paidJustBeforeAFailingDeadline(
      { error_rate: 1 },
      { policy: { lateGraceMs: 2 * MINUTE } },
    );
    await advanceEngine(harness, 2 * MINUTE);
    expect(harness.engine.getSale(sale.id)).toMatchObject({ state: 'expired' });
    const warning = harness.alerts.find((a) => a.kind === 'deadline_unresolved');
    expect(warning).toMatchObject({ level: 'warning', saleId: sale.id });
    expect(warning?.message).toContain(`Sale #${sale.id}`);
    expect(harness.engine.pollingCount()).toBe(0);

    // The end-of-day sync reads the provider's list: the payment is dated before the deadline.
    await harness.control('/faults', { error_rate: 0 });
    const page = await harness.client.listTransactions({ offset: 0, limit: 100 });
    const row = page.transactions.find((tx) => tx.sessionId === sessionId);
    expect(row).toBeDefined();
    if (row) harness.engine.recordListedTransaction(row);
    await harness.engine.idle();
    expect(harness.engine.getSale(sale.id)).toMatchObject({
      state: 'paid',
      paidSessionId: sessionId,
    });
    expect(causes(harness, sale.id).at(-1)).toBe('paid:listing-confirmed-in-time-after-expiry');
    expect(harness.alerts.map((a) => [a.kind, a.level])).toContainEqual([
      'paid_after_expiry',
      'warning',
    ]);
    expect(harness.alerts.map((a) => a.kind)).not.toContain('paid_late');
  });

  it('money sent after the deadline (a provider that takes it) is a late payment, flagged', async () => {
    const harness = (h = await createHarness({ live: true, settings: { expiryMinutes: 2 } }));
    await harness.control('/personality', { expired_payments: 'accept', callbacks: 'never' });
    const sale = await harness.engine.createSale({ amountKobo: 12_000 });
    await advanceEngine(harness, 2 * MINUTE + 5 * SECOND);
    expect(harness.engine.getSale(sale.id)).toMatchObject({ state: 'expired' });
    await advanceEngine(harness, 10 * SECOND);
    await harness.transfer(sale.accountNumber ?? '', 120);
    await advanceEngine(harness, MINUTE); // the late watch's next check
    expect(harness.engine.getSale(sale.id).state).toBe('paid_late');
    expect(harness.alerts.map((a) => [a.kind, a.level])).toContainEqual(['paid_late', 'error']);
  });
});
