import { afterEach, describe, expect, it } from 'vitest';
import { listInflowsForReference } from '#main/store/inflows-repo';
import { advanceEngine } from '#support/engine-advance';
import { createHarness, harnessSync, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SECOND = 1_000;

async function repeatWorld(personality: Record<string, unknown> = {}, clientFetch?: typeof fetch) {
  const harness = (h = await createHarness({
    live: true,
    ...(clientFetch ? { clientFetch } : {}),
  }));
  await harness.control('/personality', { repeat_payments: 'accept', ...personality });
  const sale = await harness.engine.createSale({ amountKobo: 100_000 });
  return { harness, sale };
}

function paidTwiceAlerts(harness: Harness) {
  return harness.alerts.filter((alert) => alert.kind === 'paid_twice');
}

describe('a payment beyond the one that paid a sale', () => {
  it('found by its callback: flagged at once with the sale, the amount and the session id', async () => {
    const { harness, sale } = await repeatWorld();
    const first = await harness.transfer(sale.accountNumber ?? '', 1000);
    await harness.settle();
    expect(harness.engine.getSale(sale.id)).toMatchObject({
      state: 'paid',
      paidSessionId: first['session_id'],
    });
    expect(paidTwiceAlerts(harness)).toEqual([]);

    const second = await harness.transfer(sale.accountNumber ?? '', 1000);
    await harness.settle();
    const alerts = paidTwiceAlerts(harness);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ level: 'error', saleId: sale.id });
    expect(alerts[0]?.message).toContain(`sale #${sale.id}`);
    expect(alerts[0]?.message).toContain(String(second['session_id']));
    expect(alerts[0]?.message).toContain('refund the customer ₦1,000.00');
    // The sale stays paid by the first transfer; the second is stored, not silently dropped.
    expect(harness.engine.getSale(sale.id).paidSessionId).toBe(first['session_id']);
    expect(
      listInflowsForReference(harness.db, sale.reference).map((r) => [r.sessionId, r.status]),
    ).toEqual([
      [first['session_id'], 'success'],
      [second['session_id'], 'success'],
    ]);
    // A duplicate of the first callback is no news.
    await harness.engine.handleCallback(null, {
      reference: sale.reference,
      sessionId: String(first['session_id']),
    });
    expect(paidTwiceAlerts(harness)).toHaveLength(1);
  });

  it("the sale's view owes the extra back, shown again to every page, until a person notes the refund", async () => {
    const { harness, sale } = await repeatWorld();
    await harness.transfer(sale.accountNumber ?? '', 1000);
    await harness.settle();
    expect(harness.engine.getSale(sale.id).refundsOwed).toEqual([]);

    const second = await harness.transfer(sale.accountNumber ?? '', 1000);
    await harness.settle();
    const [alert] = paidTwiceAlerts(harness);
    const owed = [
      {
        alertId: alert?.id,
        amountKobo: 100_000,
        sessionId: second['session_id'],
        details: alert?.message,
      },
    ];
    expect(harness.engine.getSale(sale.id).refundsOwed).toEqual(owed);
    // The till and the customer display hear of it without a state change of the sale.
    expect(harness.saleEvents.at(-1)).toMatchObject({
      id: sale.id,
      state: 'paid',
      refundsOwed: owed,
    });

    expect(harness.engine.acknowledgeAlert(alert?.id ?? 0, null)).toBe(true);
    await harness.settle();
    expect(harness.engine.getSale(sale.id).refundsOwed).toEqual([]);
    expect(harness.saleEvents.at(-1)).toMatchObject({ id: sale.id, refundsOwed: [] });
    // Noted once: a second press changes nothing.
    expect(harness.engine.acknowledgeAlert(alert?.id ?? 0, null)).toBe(false);
  });

  it('a callback of no known shape for a paid sale: the till asks the provider and flags the second', async () => {
    const { harness, sale } = await repeatWorld({ callbacks: 'never' });
    const first = await harness.transfer(sale.accountNumber ?? '', 1000);
    await harness.engine.customerSaysPaid(sale.id);
    expect(harness.engine.getSale(sale.id).paidSessionId).toBe(first['session_id']);
    const second = await harness.transfer(sale.accountNumber ?? '', 1000);
    // A callback of no known shape for the paid sale: the till asks, the status shows the
    // newest success here, and either way the second payment is flagged.
    expect(await harness.engine.handleCallback(null, { reference: sale.reference })).toBe(
      'paid-twice',
    );
    expect(paidTwiceAlerts(harness).map((a) => a.message)).toEqual([
      expect.stringContaining(String(second['session_id'])),
    ]);
  });

  it('found by the sync, even when both payments reach the till in one page', async () => {
    const { harness, sale } = await repeatWorld({ callbacks: 'never' });
    await harness.transfer(sale.accountNumber ?? '', 1000);
    await harness.transfer(sale.accountNumber ?? '', 1000);
    const run = await harnessSync(harness).run({ mode: 'full', trigger: 'user' });
    expect(run.status).toBe('complete');
    await harness.settle();
    const paid = harness.engine.getSale(sale.id);
    expect(paid.state).toBe('paid');
    const extra = listInflowsForReference(harness.db, sale.reference).find(
      (row) => row.sessionId !== paid.paidSessionId,
    );
    expect(extra?.status).toBe('success');
    expect(paidTwiceAlerts(harness)).toMatchObject([
      { saleId: sale.id, message: expect.stringContaining(extra?.sessionId ?? 'none') as string },
    ]);
  });

  it('found by the listing lookup when the status endpoint finds nothing (404)', async () => {
    // A provider whose status endpoint answers 404 here: the lookup brings both payments at once.
    const statusNotFound: typeof fetch = (input, init) =>
      String(input instanceof Request ? input.url : input).includes('/virtual/status')
        ? Promise.resolve(new Response('{"status":"error"}', { status: 404 }))
        : fetch(input, init);
    const { harness, sale } = await repeatWorld({ callbacks: 'never' }, statusNotFound);
    await harness.transfer(sale.accountNumber ?? '', 1000);
    await harness.transfer(sale.accountNumber ?? '', 1000);
    const shown = await harness.engine.customerSaysPaid(sale.id);
    expect(shown.state).toBe('paid');
    expect(paidTwiceAlerts(harness)).toMatchObject([{ saleId: sale.id }]);
    expect(paidTwiceAlerts(harness)[0]?.sessionId).not.toBe(shown.paidSessionId);
  });

  it('into a cancelled sale: the first is paid late, the second flagged', async () => {
    const { harness, sale } = await repeatWorld({ expired_payments: 'accept' });
    harness.engine.cancelSale(sale.id);
    await harness.transfer(sale.accountNumber ?? '', 1000);
    await harness.settle();
    expect(harness.engine.getSale(sale.id).state).toBe('paid_late');
    expect(paidTwiceAlerts(harness)).toEqual([]);
    await harness.transfer(sale.accountNumber ?? '', 1000);
    await advanceEngine(harness, SECOND);
    expect(paidTwiceAlerts(harness)).toHaveLength(1);
  });
});
