import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceGenerator } from '#main/provider/references';
import { getCallback, insertCallback } from '#main/store/callback-log-repo';
import { listInflowsForReference } from '#main/store/inflows-repo';
import { listSaleEvents } from '#main/store/sales-repo';
import { SaleError } from './sales-engine';
import { createHarness, type Harness } from '#support/sales-harness';

let h: Harness;

afterEach(async () => {
  await h?.close();
});

function inflowCount(): number {
  return (h.db.prepare('SELECT COUNT(*) AS n FROM inflows').get() as { n: number }).n;
}

function states(saleId: number): string[] {
  return listSaleEvents(h.db, saleId).map((event) => event.toState);
}

describe('the life of a sale (real sandbox, real SQLite, fake clock)', () => {
  it('exact amount via callback: paid once, confirmed with the status endpoint', async () => {
    h = await createHarness({ live: true });
    const sale = await h.engine.createSale({ amountKobo: 150_000, note: 'rice', cashier: 'Ada' });
    expect(sale).toMatchObject({
      state: 'awaiting_payment',
      amountKobo: 150_000,
      bank: 'Sandbox Bank',
    });
    expect(sale.accountNumber).toMatch(/^\d{10}$/);
    expect(sale.expiresAt).toBe(h.scheduler.now() + 15 * 60_000);

    await h.transfer(sale.accountNumber!, 1500);
    await h.settle();

    expect(h.engine.getSale(sale.id)).toMatchObject({
      state: 'paid',
      paidSessionId: expect.stringMatching(/^\d{30}$/) as string,
    });
    expect(h.callbacks).toHaveLength(1);
    expect(inflowCount()).toBe(1);
    expect(listInflowsForReference(h.db, sale.reference)[0]).toMatchObject({
      source: 'callback',
      amountKobo: 150_000,
      status: 'success',
      saleId: sale.id,
    });
    expect(states(sale.id)).toEqual(['creating', 'awaiting_payment', 'paid']);
    expect(h.engine.pollingCount()).toBe(0);
  });

  it('via polling when callbacks are dropped: the 2 s / 4 s / 8 s backoff finds the payment', async () => {
    h = await createHarness({ live: false });
    await h.control('/faults', { drop_callbacks: 1 });
    const sale = await h.engine.createSale({ amountKobo: 250_050 });
    expect(h.engine.pollingCount()).toBe(1);
    await h.advance(2_000); // first poll: nothing yet
    expect(h.engine.getSale(sale.id).state).toBe('awaiting_payment');

    await h.transfer(sale.accountNumber!, 2500.5);
    await h.settle();
    expect(h.callbacks).toHaveLength(0);
    await h.advance(3_999);
    expect(h.engine.getSale(sale.id).state).toBe('awaiting_payment'); // next poll is 4 s after the first
    await h.advance(1);
    expect(h.engine.getSale(sale.id)).toMatchObject({ state: 'paid' });
    expect(listInflowsForReference(h.db, sale.reference)[0]?.source).toBe('poll');
    expect(h.engine.pollingCount()).toBe(0);
  });

  it('wrong amount: rejected and shown, then the exact amount still pays the sale', async () => {
    h = await createHarness({ live: false });
    const sale = await h.engine.createSale({ amountKobo: 100_000 });
    await h.transfer(sale.accountNumber!, 900);
    await h.advance(2_000);
    const wrong = h.engine.getSale(sale.id);
    expect(wrong.state).toBe('wrong_amount');
    expect(wrong.reason).toContain('₦900.00');
    expect(wrong.reason).toContain('₦1,000.00');
    expect(wrong.paidSessionId).toBeNull();

    await h.transfer(sale.accountNumber!, 1000);
    await h.advance(4_000);
    expect(h.engine.getSale(sale.id).state).toBe('paid');
    const rows = listInflowsForReference(h.db, sale.reference);
    expect(rows.map((r) => [r.status, r.amountKobo])).toEqual([
      ['failed', 90_000],
      ['success', 100_000],
    ]);
  });

  it('pending then success: "customer says they paid" checks at once and follows the transfer', async () => {
    h = await createHarness({ live: true });
    const sale = await h.engine.createSale({ amountKobo: 50_000 });
    await h.transfer(sale.accountNumber!, 500, 20_000);
    const checking = await h.engine.customerSaysPaid(sale.id);
    expect(checking.state).toBe('confirming');
    await h.engine.customerSaysPaid(sale.id);
    await h.engine.customerSaysPaid(sale.id);
    expect(h.engine.pollingCount()).toBe(1); // never more than one poll loop per sale
    await h.advance(14_000); // polls at 2, 6, 14 s: still pending
    expect(h.engine.getSale(sale.id).state).toBe('confirming');
    await h.advance(30_000); // settles at 20 s; the 30 s poll (or the callback) confirms it
    expect(h.engine.getSale(sale.id).state).toBe('paid');
    expect(inflowCount()).toBe(1);
  });

  it('expiry: a final status check at the deadline, then expired', async () => {
    h = await createHarness({ live: true });
    const sale = await h.engine.createSale({ amountKobo: 10_000 });
    await h.advance(15 * 60_000);
    expect(h.engine.getSale(sale.id).state).toBe('awaiting_payment');
    await h.advance(5_000);
    expect(h.engine.getSale(sale.id)).toMatchObject({
      state: 'expired',
      reason: 'Expired unpaid.',
    });
    const rejected = await h.transfer(sale.accountNumber!, 100);
    expect(rejected).toMatchObject({ status: 'error' });
    expect(inflowCount()).toBe(0);
  });

  it('cancel then late payment: recorded, flagged loudly, never lost', async () => {
    h = await createHarness({ live: true });
    const sale = await h.engine.createSale({ amountKobo: 75_000 });
    expect(h.engine.cancelSale(sale.id).state).toBe('cancelled');
    await h.transfer(sale.accountNumber!, 750);
    await h.settle();
    const late = h.engine.getSale(sale.id);
    expect(late).toMatchObject({
      state: 'paid_late',
      paidSessionId: expect.stringMatching(/^\d{30}$/) as string,
    });
    expect(h.alerts.map((a) => [a.kind, a.level])).toContainEqual(['paid_late', 'error']);
    expect(h.alerts.find((a) => a.kind === 'paid_late')?.message).toContain('LATE PAYMENT');
    expect(states(sale.id)).toEqual(['creating', 'awaiting_payment', 'cancelled', 'paid_late']);
  });

  it('duplicate and out-of-order callbacks: one inflow, one state change', async () => {
    h = await createHarness({ live: true });
    const sale = await h.engine.createSale({ amountKobo: 20_000 });
    const tx = await h.transfer(sale.accountNumber!, 200);
    await h.settle();
    await h.control(`/transactions/${String(tx['session_id'])}/callbacks`, { copies: 5 });
    await h.settle();
    // A stale callback replayed by hand after the sale is paid changes nothing.
    await h.engine.handleCallback(null, {
      reference: sale.reference,
      sessionId: String(tx['session_id']),
      status: 'pending',
    });
    expect(h.callbacks.length).toBe(6);
    expect(inflowCount()).toBe(1);
    expect(states(sale.id).filter((s) => s === 'paid')).toHaveLength(1);
    expect(h.saleEvents.filter((v) => v.id === sale.id && v.state === 'paid')).toHaveLength(1);
  });

  it('a callback for an unknown reference, or one the provider does not confirm, never marks paid', async () => {
    h = await createHarness({ live: true });
    const sale = await h.engine.createSale({ amountKobo: 30_000 });
    expect(
      await h.engine.handleCallback(null, {
        reference: 'TT-NOT-OURS',
        sessionId: '1'.repeat(30),
        amountKobo: 30_000,
        status: 'success',
      }),
    ).toBe('unknown-reference');
    // A forged "success" for our own sale: the status endpoint says no transaction exists.
    expect(
      await h.engine.handleCallback(null, {
        reference: sale.reference,
        sessionId: '2'.repeat(30),
        amountKobo: 30_000,
        status: 'success',
      }),
    ).toBe('not-confirmed:awaiting_payment');
    expect(h.engine.getSale(sale.id).state).toBe('awaiting_payment');
    expect(inflowCount()).toBe(0);
    expect(h.engine.pollingCount()).toBe(1); // the overdue news starts the fallback polling
    expect(h.alerts.map((a) => a.kind)).toContain('unknown_callback');
  });

  it('409 on create: a new reference and one automatic retry', async () => {
    const real = createReferenceGenerator();
    const taken = real.next();
    let first = true;
    h = await createHarness({
      live: true,
      references: {
        runId: real.runId,
        next: () => (first ? ((first = false), taken) : real.next()),
      },
    });
    await h.client.createVirtualAccount({
      reference: taken,
      accountName: 'Other till',
      merchantId: 'M',
      type: 'nonstatic',
      amountKobo: 100,
      expiryMinutes: 5,
      callbackUrl: 'http://127.0.0.1:9/',
    });
    const sale = await h.engine.createSale({ amountKobo: 40_000 });
    expect(sale.state).toBe('awaiting_payment');
    expect(sale.reference).not.toBe(taken);
    expect(states(sale.id)).toEqual(['creating', 'creating', 'awaiting_payment']);
  });

  it('timeout on create: failed to create with the reason, and the cashier can retry', async () => {
    let failCreate = true;
    h = await createHarness({
      live: true,
      clientFetch: (input, init) => {
        if (
          failCreate &&
          String(input instanceof Request ? input.url : input).includes('/virtual/new-account')
        ) {
          return Promise.reject(new TypeError('fetch failed', { cause: new Error('ECONNRESET') }));
        }
        return fetch(input, init);
      },
    });
    const sale = await h.engine.createSale({ amountKobo: 60_000 });
    expect(sale.state).toBe('failed_to_create');
    expect(sale.reason).toMatch(/did not answer|problem|could not/);
    failCreate = false;
    const retried = await h.engine.retrySale(sale.id);
    expect(retried.state).toBe('awaiting_payment');
    expect(retried.reference).not.toBe(sale.reference);
  });

  it('refuses bad amounts with a clear error before anything is sent', async () => {
    h = await createHarness({ live: true, settings: { maxSaleKobo: 1_000_000 } });
    await expect(h.engine.createSale({ amountKobo: 0 })).rejects.toThrow(SaleError);
    await expect(h.engine.createSale({ amountKobo: 1.5 })).rejects.toThrow(/greater than/);
    await expect(h.engine.createSale({ amountKobo: 1_000_001 })).rejects.toThrow(/largest sale/);
    expect(await h.control('/accounts')).toEqual({ accounts: [] });
  });

  it('resume after a stop: a payment made while the app was down is found at start', async () => {
    h = await createHarness({ live: true });
    await h.control('/faults', { drop_callbacks: 1 });
    const sale = await h.engine.createSale({ amountKobo: 12_300 });
    h.engine.close();
    await h.transfer(sale.accountNumber!, 123);
    const engine = h.restartEngine();
    await engine.resume();
    expect(engine.getSale(sale.id).state).toBe('paid');
    expect(inflowCount()).toBe(1);
  });

  it('static-flex standing account: any amount recorded as an inflow', async () => {
    h = await createHarness({ live: true });
    const account = await h.engine.createStandingAccount({ type: 'static-flex' });
    expect(account).toMatchObject({ type: 'static-flex', purpose: 'counter', status: 'active' });
    await h.transfer(account.accountNumber!, 4321.5);
    await h.settle();
    const rows = listInflowsForReference(h.db, account.reference);
    expect(rows.map((r) => [r.amountKobo, r.status, r.accountId])).toEqual([
      [432_150, 'success', account.id],
    ]);
  });

  it('idle() waits for a whole callback, outcome included, so close() cannot race it', async () => {
    // Found by the fault campaign: a standing account's callback was still being confirmed when
    // the runtime closed the database, and the write failed ("database connection is not open").
    h = await createHarness({ live: true });
    const account = await h.engine.createStandingAccount({ type: 'static-flex' });
    await h.control('/faults', { drop_callbacks: 1, latency_ms: 30 });
    await h.transfer(account.accountNumber!, 250);
    const id = insertCallback(h.db, {
      receivedAt: h.scheduler.now(),
      remoteAddress: '127.0.0.1',
      method: 'POST',
      contentType: 'application/json',
      headers: {},
      body: '{}',
      parseStatus: 'ok',
      hint: { reference: account.reference },
    });
    void h.engine.handleCallback(id, { reference: account.reference });
    await h.engine.idle();
    expect(getCallback(h.db, id)).toMatchObject({ outcome: 'standing-confirmed' });
    expect(listInflowsForReference(h.db, account.reference)).toHaveLength(1);
  });
});
