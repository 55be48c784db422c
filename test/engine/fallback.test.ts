import { afterEach, describe, expect, it } from 'vitest';
import { advanceEngine } from '#support/engine-advance';
import { countProviderRequests } from '#support/engine-request-counter';
import { listSaleEvents } from '#main/store/sales-repo';
import { createHarness, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SECOND = 1_000;
const MINUTE = 60_000;

/** Fake time from `since` to the sale's 'paid' event, or null when it never came. */
function timeToPaid(harness: Harness, saleId: number, since: number): number | null {
  const paid = listSaleEvents(harness.db, saleId).find((e) => e.toState === 'paid');
  return paid ? paid.at - since : null;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/** A fixed spread of transfer times (ms after the sale), so the run is the same every time. */
function spread(i: number): number {
  return ((i * 7_919) % 53) * SECOND + ((i * 389) % 1_000);
}

describe('every callback lost while the route claims to be live', () => {
  it('20 exact transfers are paid without the cashier: each within 35 s, median <= 20 s', async () => {
    const harness = (h = await createHarness({ live: true }));
    await harness.control('/personality', { callbacks: 'never' });
    const start = harness.scheduler.now();
    const sales = [];
    for (let i = 0; i < 20; i++) {
      const sale = await harness.engine.createSale({ amountKobo: 100_000 + i * 100 });
      sales.push({ sale, payAt: start + spread(i), paidFrom: 0 });
    }
    for (const entry of [...sales].sort((a, b) => a.payAt - b.payAt)) {
      await advanceEngine(harness, entry.payAt - harness.scheduler.now());
      await harness.transfer(entry.sale.accountNumber ?? '', entry.sale.amountKobo / 100);
      entry.paidFrom = harness.scheduler.now();
    }
    await advanceEngine(harness, MINUTE);
    expect(harness.callbacks).toEqual([]);
    const times = sales.map(({ sale, paidFrom }) => timeToPaid(harness, sale.id, paidFrom));
    expect(
      times.every((t) => t !== null && t <= 35 * SECOND),
      JSON.stringify(times),
    ).toBe(true);
    expect(median(times.map((t) => t ?? Infinity))).toBeLessThanOrEqual(20 * SECOND);
    // Found by checks, never by a callback: the monitor now says callbacks are not reaching.
    expect(harness.health.state()).toBe('not_reaching');
  });

  it('with "Customer says they paid", each is paid within 5 s of the transfer', async () => {
    const harness = (h = await createHarness({ live: true }));
    await harness.control('/personality', { callbacks: 'never' });
    for (let i = 0; i < 5; i++) {
      const sale = await harness.engine.createSale({ amountKobo: 50_000 + i });
      await advanceEngine(harness, spread(i + 3));
      await harness.transfer(sale.accountNumber ?? '', sale.amountKobo / 100);
      const transferredAt = harness.scheduler.now();
      await advanceEngine(harness, SECOND);
      await harness.engine.customerSaysPaid(sale.id);
      const t = timeToPaid(harness, sale.id, transferredAt);
      expect(t).not.toBeNull();
      expect(t).toBeLessThanOrEqual(5 * SECOND);
    }
  });

  it('a press right after a check reuses its answer, then the backoff finds the money', async () => {
    const requests = countProviderRequests(() => h?.scheduler.now() ?? 0);
    const harness = (h = await createHarness({ live: true, clientFetch: requests.fetch }));
    await harness.control('/personality', { callbacks: 'never' });
    const sale = await harness.engine.createSale({ amountKobo: 70_000 });
    await advanceEngine(harness, 15 * SECOND); // the first safety-net check
    expect(requests.status).toHaveLength(1);
    await harness.transfer(sale.accountNumber ?? '', 700);
    await advanceEngine(harness, SECOND);
    const shown = await harness.engine.customerSaysPaid(sale.id);
    expect(shown.state).toBe('awaiting_payment');
    expect(requests.status).toHaveLength(1); // reused: within 2 s of the last request
    await advanceEngine(harness, SECOND); // 2 s after that check: the backoff's first step
    expect(harness.engine.getSale(sale.id).state).toBe('paid');
    expect(requests.status).toHaveLength(2);
  });
});

describe('the request budget: at most one status request per open sale per 10 s on average', () => {
  for (const live of [true, false]) {
    it(`a 15-minute sale with no payment (callbacks ${live ? 'live' : 'off'})`, async () => {
      const requests = countProviderRequests(() => h?.scheduler.now() ?? 0);
      const harness = (h = await createHarness({ live, clientFetch: requests.fetch }));
      const sale = await harness.engine.createSale({ amountKobo: 20_000 });
      const created = harness.scheduler.now();
      const finalCheckAt = (sale.expiresAt ?? 0) + 5 * SECOND;
      await advanceEngine(harness, finalCheckAt - created);
      expect(harness.engine.getSale(sale.id).state).toBe('expired');
      const during = requests.status.filter((r) => r.at <= finalCheckAt);
      expect(during.length).toBeGreaterThan(0);
      expect((finalCheckAt - created) / during.length).toBeGreaterThanOrEqual(10 * SECOND);
      // The bounded listing lookup ran on the safety-net cadence, one read for every sale.
      expect(requests.listing.length).toBeLessThanOrEqual(during.length);
    });
  }
});

describe('the callback health, as the engine uses it', () => {
  it("each sale shows the health's state as its callbackMode", async () => {
    const harness = (h = await createHarness({ live: true }));
    const first = await harness.engine.createSale({ amountKobo: 10_000 });
    expect(first.callbackMode).toBe('unproven');
    await harness.transfer(first.accountNumber ?? '', 100);
    await harness.settle();
    expect(harness.engine.getSale(first.id)).toMatchObject({ state: 'paid', callbackMode: 'live' });
    harness.live = false;
    expect((await harness.engine.createSale({ amountKobo: 10_000 })).callbackMode).toBe('off');
  });

  it('once a payment is found without its callback, open sales are checked every ~10 s', async () => {
    const requests = countProviderRequests(() => h?.scheduler.now() ?? 0);
    const harness = (h = await createHarness({ live: true, clientFetch: requests.fetch }));
    await harness.control('/personality', { callbacks: 'never' });
    const first = await harness.engine.createSale({ amountKobo: 10_000 });
    const second = await harness.engine.createSale({ amountKobo: 20_000 });
    await harness.transfer(first.accountNumber ?? '', 100);
    await advanceEngine(harness, 15 * SECOND); // the safety net finds it
    expect(harness.engine.getSale(first.id).state).toBe('paid');
    expect(harness.health.state()).not.toBe('not_reaching'); // its callback may still come
    await advanceEngine(harness, 25 * SECOND);
    expect(harness.health.state()).toBe('not_reaching');
    const from = harness.scheduler.now();
    await advanceEngine(harness, MINUTE);
    const checks = requests.status.filter((r) => r.reference === second.reference && r.at > from);
    expect(checks.length).toBeGreaterThanOrEqual(5);
    expect(harness.engine.getSale(second.id).callbackMode).toBe('not_reaching');
  });
});
