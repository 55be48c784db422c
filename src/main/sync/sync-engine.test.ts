import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncRunView } from '#shared/views';
import { advanceEngine } from '#support/engine-advance';
import { createHarness, type Harness } from '#support/sales-harness';
import { createTransactionSync } from './sync';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function syncFor(harness: Harness) {
  const finished: SyncRunView[] = [];
  const sync = createTransactionSync({
    db: harness.db,
    client: () => harness.client,
    scheduler: harness.scheduler,
    logger: pino({ level: 'silent' }),
    onRow: (tx) => harness.engine.recordListedTransaction(tx),
    events: { progress: () => undefined, finished: (run) => finished.push(run) },
  });
  return { sync, finished };
}

describe('sync and the sales engine', () => {
  it('a listed payment confirms a sale whose callback never came, and links the inflow', async () => {
    h = await createHarness({ live: true });
    await h.control('/faults', { drop_callbacks: 1 });
    const sale = await h.engine.createSale({ amountKobo: 150000, cashier: 'Ada' });
    expect(sale.state).toBe('awaiting_payment');
    const transfer = await h.transfer(sale.accountNumber ?? '', 1500);
    await h.settle();
    expect(h.engine.getSale(sale.id).state).toBe('awaiting_payment');

    const { sync } = syncFor(h);
    const run = await sync.run({ mode: 'full', trigger: 'user' });
    await h.settle();
    expect(run).toMatchObject({ status: 'complete', inserted: 1 });
    const paid = h.engine.getSale(sale.id);
    expect(paid).toMatchObject({ state: 'paid', paidSessionId: transfer['session_id'] });
    const stored = h.db
      .prepare(
        'SELECT sale_id AS saleId, listed_at AS listedAt, listed_status AS listedStatus FROM inflows',
      )
      .all();
    expect(stored).toEqual([
      { saleId: sale.id, listedAt: expect.any(Number) as unknown, listedStatus: 'success' },
    ]);
  });

  it('never overwrites a stored amount, and hands the conflict to the engine for its alert', async () => {
    h = await createHarness({ live: true });
    await h.control('/faults', { drop_callbacks: 1 });
    const counter = await h.engine.createStandingAccount({ type: 'static-flex' });
    const a = await h.transfer(counter.accountNumber ?? '', 200);
    const b = await h.transfer(counter.accountNumber ?? '', 300);
    const { sync } = syncFor(h);
    await sync.run({ mode: 'full', trigger: 'user' });

    // Our copy disagrees with the provider about one amount.
    h.db.prepare('UPDATE inflows SET amount_kobo = 99 WHERE session_id = ?').run(a['session_id']);
    const second = await sync.run({ mode: 'full', trigger: 'user' });
    await h.settle();
    expect(second).toMatchObject({ status: 'complete', inserted: 0, updated: 0 });
    const rows = h.db
      .prepare(
        'SELECT session_id AS s, amount_kobo AS k, status, account_id AS accountId FROM inflows ORDER BY id',
      )
      .all();
    expect(rows).toEqual([
      { s: a['session_id'], k: 99, status: 'success', accountId: counter.id },
      { s: b['session_id'], k: 30000, status: 'success', accountId: counter.id },
    ]);
    expect(h.alerts.map((alert) => alert.kind)).toEqual(['amount_conflict']);
    expect(h.alerts[0]?.sessionId).toBe(a['session_id']);
  });
});

describe('sync and the callback health', () => {
  it('a payment the sync finds first, whose callback never comes, makes the till say callbacks are not reaching it', async () => {
    h = await createHarness({ live: true });
    await h.control('/personality', { callbacks: 'never' });
    const sale = await h.engine.createSale({ amountKobo: 150000 });
    await h.transfer(sale.accountNumber ?? '', 1500);
    await h.settle();
    expect(h.engine.getSale(sale.id).state).toBe('awaiting_payment');

    // The sync (after an outage, at start, on its schedule) reads the listing before any check.
    await syncFor(h).sync.run({ mode: 'incremental', trigger: 'back-online' });
    await h.settle();
    expect(h.engine.getSale(sale.id).state).toBe('paid');
    expect(h.health.state()).not.toBe('not_reaching'); // its callback may still be on the way
    await advanceEngine(h, 25_000);
    expect(h.callbacks).toEqual([]);
    expect(h.health.state()).toBe('not_reaching');
  });

  it('a payment the sync finds first raises nothing when its callback comes within the window', async () => {
    h = await createHarness({ live: true });
    // The sandbox sends the callback 5 s (its clock, the test's) after the transfer: the sync
    // is first, the callback inside the monitor's 20 s window.
    await h.control('/personality', { callbacks: 'late', callback_delay_ms: 5_000 });
    const sale = await h.engine.createSale({ amountKobo: 150000 });
    await h.transfer(sale.accountNumber ?? '', 1500);
    await syncFor(h).sync.run({ mode: 'incremental', trigger: 'back-online' });
    expect(h.callbacks).toEqual([]);
    expect(h.engine.getSale(sale.id).state).toBe('paid');
    await advanceEngine(h, 6_000);
    await expect.poll(() => h?.callbacks.length, { timeout: 5_000 }).toBeGreaterThan(0);
    await advanceEngine(h, 20_000);
    expect(h.health.state()).toBe('live');
  });
});
