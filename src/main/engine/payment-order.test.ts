import { afterEach, describe, expect, it } from 'vitest';
import { listSaleEvents } from '#main/store/sales-repo';
import { PAYMENT_REATTRIBUTED } from './payment-order';
import { createHarness, harnessSync, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A customer who pays twice while the provider cannot be reached: the till hears of neither. */
async function paidTwiceUnseen(harness: Harness, gapMs: number) {
  await harness.control('/personality', { callbacks: 'never', repeat_payments: 'accept' });
  const sale = await harness.engine.createSale({ amountKobo: 150_000 });
  await harness.control('/faults', { error_rate: 1 });
  const first = await harness.transfer(sale.accountNumber ?? '', 1500);
  await harness.advance(gapMs);
  const second = await harness.transfer(sale.accountNumber ?? '', 1500);
  await harness.control('/faults', { error_rate: 0 });
  return { sale, first: String(first['session_id']), second: String(second['session_id']) };
}

describe('which transfer paid a sale: the first the provider dates, not the first the till hears of', () => {
  it('the status endpoint shows the newer; the listing brings the older: the payment moves to it', async () => {
    const harness = (h = await createHarness());
    const { sale, first, second } = await paidTwiceUnseen(harness, 10_000);
    // The status endpoint names the newest success: the till takes it for the payment.
    await harness.engine.customerSaysPaid(sale.id);
    await harness.settle();
    expect(harness.engine.getSale(sale.id)).toMatchObject({ state: 'paid', paidSessionId: second });
    const paidAt = harness.engine.getSale(sale.id).paidAt;

    await harnessSync(harness).run({ mode: 'full', trigger: 'manual' });
    await harness.settle();

    const after = harness.engine.getSale(sale.id);
    expect(after).toMatchObject({ state: 'paid', paidSessionId: first, paidAt });
    const correction = listSaleEvents(harness.db, sale.id).filter(
      (event) => event.cause === PAYMENT_REATTRIBUTED,
    );
    expect(correction).toHaveLength(1);
    expect(correction[0]).toMatchObject({ fromState: 'paid', toState: 'paid' });
    expect(JSON.parse(correction[0]?.detail ?? '{}')).toMatchObject({
      sessionId: first,
      replacedSessionId: second,
    });
    // The owner is told to refund the later transfer, once, and no alert names the earlier one.
    const open = harness.alerts.filter((a) => a.kind === 'paid_twice');
    expect(open.map((a) => a.sessionId)).toContain(second);
    const refund = open.find((a) => a.sessionId === second);
    expect(refund?.message).toContain(`already paid by transfer ${first}`);
    expect(refund?.message).toContain('nothing more is owed');
    expect(
      harness.db
        .prepare(
          `SELECT COUNT(*) AS n FROM alerts WHERE kind = 'paid_twice' AND session_id = ? AND acknowledged_at IS NULL`,
        )
        .get(first),
    ).toEqual({ n: 0 });

    // Seeing both again changes nothing more.
    await harnessSync(harness).run({ mode: 'full', trigger: 'manual' });
    await harness.settle();
    expect(
      listSaleEvents(harness.db, sale.id).filter((e) => e.cause === PAYMENT_REATTRIBUTED),
    ).toHaveLength(1);
  });

  it('two transfers dated the same second: the one the till took stays (the date cannot tell)', async () => {
    const harness = (h = await createHarness());
    const { sale, second } = await paidTwiceUnseen(harness, 0);
    await harness.engine.customerSaysPaid(sale.id);
    await harness.settle();
    await harnessSync(harness).run({ mode: 'full', trigger: 'manual' });
    await harness.settle();
    expect(harness.engine.getSale(sale.id).paidSessionId).toBe(second);
    expect(listSaleEvents(harness.db, sale.id).some((e) => e.cause === PAYMENT_REATTRIBUTED)).toBe(
      false,
    );
  });

  it('paid late by a transfer after expiry, then one made in time turns up: the sale is paid', async () => {
    const harness = (h = await createHarness());
    await harness.control('/personality', {
      callbacks: 'never',
      repeat_payments: 'accept',
      expired_payments: 'accept',
    });
    const sale = await harness.engine.createSale({ amountKobo: 150_000 });
    await harness.control('/faults', { error_rate: 1 });
    const inTime = String((await harness.transfer(sale.accountNumber ?? '', 1500))['session_id']);
    // The provider stays unreachable past the deadline and the grace: the till gives up (expired).
    await harness.advance(16 * 60_000);
    await harness.advance(31 * 60_000);
    await harness.settle();
    expect(harness.engine.getSale(sale.id).state).toBe('expired');
    const late = String((await harness.transfer(sale.accountNumber ?? '', 1500))['session_id']);
    await harness.control('/faults', { error_rate: 0 });
    // The listing shows the newest first: the late transfer is taken first (paid late), then
    // the one made in time turns up and pays the sale.
    await harness.control('/personality', { listing_order: 'newest_first' });
    await harnessSync(harness).run({ mode: 'full', trigger: 'manual' });
    await harness.settle();
    expect(harness.engine.getSale(sale.id)).toMatchObject({ state: 'paid', paidSessionId: inTime });
    const moves = listSaleEvents(harness.db, sale.id).map((e) => `${e.toState} ${e.cause}`);
    expect(moves.slice(-2)).toEqual([
      'paid_late listing-confirmed-after-expired',
      `paid ${PAYMENT_REATTRIBUTED}`,
    ]);
    const open = (kind: string) =>
      harness.db
        .prepare(
          `SELECT session_id AS sessionId FROM alerts WHERE kind = ? AND acknowledged_at IS NULL`,
        )
        .all(kind);
    expect(open('paid_late')).toEqual([]);
    expect(open('paid_after_expiry')).toEqual([{ sessionId: inTime }]);
    expect(open('paid_twice')).toEqual([{ sessionId: late }]);
    // 47 minutes of the till's clock with every provider call failing, stepped timer by timer:
    // 19 s of real time on a 2-core machine at load 9, 20 s the default bound.
  }, 60_000);
});
