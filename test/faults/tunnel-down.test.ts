/**
 * The tunnel going down, at the engine's level. Through createCore the sandbox profile always
 * posts callbacks to the local listener (decideCallbackRoute ignores the tunnel there), so the
 * campaign cannot take callbacks "non-live"; here the engine harness does what create-core does
 * on a tunnel status other than online: the route stops being live and callbacksWentDown()
 * moves open sales to polling, while the provider can no longer deliver (every callback
 * dropped). There is no listing sync in these runs, so polling alone must find every payment.
 */
import { describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '#support/sales-harness';
import { DEFAULT_CHECK_POLICY } from '#main/engine/check-schedule';
import { checkInvariants, readStore, type LedgerTx } from './invariants';
import { createPrng, runSeed } from '#support/random';

const SEED = 77_001;
const RUNS = 25;
/** Polling finds a payment within its backoff: 30 s steps, one failed check allowed. */
const FOUND_WITHIN_MS = 90 * 1_000;
const SECOND = 1_000;
const MINUTE = 60_000;

async function ledger(h: Harness): Promise<LedgerTx[]> {
  return ((await h.control('/ledger')) as { transactions: LedgerTx[] }).transactions;
}

/** Timers in order, each followed by the engine's work (callbacks are dropped: no races). */
async function advance(h: Harness, ms: number): Promise<void> {
  await h.scheduler.advance(ms, async () => {
    await new Promise((r) => setImmediate(r));
    await h.engine.idle();
  });
  await ledger(h); // the bank settles what is due
}

async function tunnelDownRun(seed: number) {
  const rng = createPrng(seed);
  const expiryMinutes = rng.pick([2, 5, 15] as const);
  const h = await createHarness({ live: true, settings: { expiryMinutes } });
  try {
    const start = h.scheduler.now();
    type Action = { at: number; run: () => Promise<unknown> };
    const actions: Action[] = [];
    const accounts: (string | null)[] = [];
    const saleIds: number[] = [];
    const downAt = rng.int(0, expiryMinutes * 60) * SECOND;
    actions.push({
      at: downAt,
      run: async () => {
        await h.control('/faults', { drop_callbacks: 1 });
        h.live = false;
        h.engine.callbacksWentDown();
      },
    });
    if (rng.chance(0.3)) {
      actions.push({
        at: downAt + rng.int(10, 300) * SECOND,
        run: async () => {
          h.live = true;
          await h.control('/faults', { drop_callbacks: 0 });
        },
      });
    }
    if (rng.chance(0.4)) {
      actions.push({
        at: rng.int(0, expiryMinutes * 60) * SECOND,
        run: () => h.control('/faults', { error_rate: 0.2, seed: rng.seed() }),
      });
    }
    if (rng.chance(0.3)) {
      actions.push({
        at: rng.int(0, expiryMinutes * 60) * SECOND,
        run: () => h.restartEngine().resume(),
      });
    }
    const sales = rng.int(1, 3);
    for (let k = 0; k < sales; k++) {
      const kobo = rng.int(100, 20_000) * 100 + rng.int(0, 99);
      const created = rng.int(0, 60) * SECOND;
      actions.push({
        at: created,
        run: async () => {
          const sale = await h.engine.createSale({ amountKobo: kobo });
          accounts[k] = sale.accountNumber;
          saleIds[k] = sale.id;
        },
      });
      const pay = (at: number, amountKobo: number, pendingMs: number) =>
        actions.push({
          at,
          run: async () => {
            const account = accounts[k];
            if (!account) return;
            await h.transfer(account, amountKobo / 100, pendingMs || undefined);
            await h.settle(); // a callback still on the wire lands at this fake instant
          },
        });
      const within = () => created + rng.int(1, expiryMinutes * 60 - 1) * SECOND;
      const behaviour = rng.pick([
        'exact',
        'exact',
        'pending',
        'wrong-then-exact',
        'cancel-then-pay',
        'none',
      ] as const);
      if (behaviour === 'exact') pay(within(), kobo, 0);
      if (behaviour === 'pending') pay(within(), kobo, rng.int(1, 20 * 60) * SECOND);
      if (behaviour === 'wrong-then-exact') {
        const at = within();
        pay(at, kobo + 100, 0);
        pay(at + rng.int(1, 60) * SECOND, kobo, 0);
      }
      if (behaviour === 'cancel-then-pay') {
        const at = within();
        actions.push({
          at,
          // Refused (SALE_NOT_OPEN) when the sale is paid already: a rejection, not a throw.
          run: () =>
            Promise.resolve(saleIds[k]).then((id) => id !== undefined && h.engine.cancelSale(id)),
        });
        pay(at + SECOND, kobo, 0);
      }
    }
    actions.sort((a, b) => a.at - b.at);
    for (const action of actions) {
      const target = start + action.at;
      if (target > h.scheduler.now()) await advance(h, target - h.scheduler.now());
      // A transfer to an account that has expired is refused by the provider: nothing to find.
      await action.run().catch(() => undefined);
    }
    const { expiryCheckDelayMs, lateGraceMs } = DEFAULT_CHECK_POLICY;
    const end =
      start +
      60 * SECOND +
      expiryMinutes * MINUTE +
      20 * MINUTE +
      expiryCheckDelayMs +
      lateGraceMs +
      MINUTE;
    while (h.scheduler.now() < end) await advance(h, Math.min(MINUTE, end - h.scheduler.now()));
    await h.engine.idle();
    const txs = await ledger(h);
    const store = readStore(h.dbPath);
    // Liveness: a sale paid in time was confirmed soon after the money landed.
    const slow: string[] = [];
    for (const sale of store.sales.filter((s) => s.state === 'paid')) {
      const tx = txs.find((t) => t.session_id === sale.paidSessionId);
      const paidAt = store.events.find((e) => e.saleId === sale.id && e.toState === 'paid')?.at;
      const landed = tx?.settled_at_ms ?? tx?.created_at_ms;
      if (paidAt === undefined || landed === undefined) continue;
      if (paidAt - landed > FOUND_WITHIN_MS)
        slow.push(`sale ${sale.id} paid ${(paidAt - landed) / 1000} s after the money landed`);
    }
    return {
      ...checkInvariants(txs, store, { phase: 'recovered', expiryCheckDelayMs }),
      slow,
    };
  } finally {
    await h.close();
  }
}

describe('the tunnel goes down part way (engine harness, polling only)', () => {
  it(`${RUNS} seeded runs: every payment is found by polling within 90 s, late ones flagged, none left open`, async () => {
    let inflows = 0;
    for (let i = 0; i < RUNS; i++) {
      const seed = runSeed(SEED, i);
      const result = await tunnelDownRun(seed);
      inflows += result.inflows;
      expect(result.violations, `seed ${SEED} run ${i} (run seed ${seed})`).toEqual([]);
      expect(result.slow, `seed ${SEED} run ${i} (run seed ${seed})`).toEqual([]);
    }
    expect(inflows).toBeGreaterThan(0);
  }, 60_000);
});
