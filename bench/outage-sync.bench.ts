/**
 * Outage-matching figure: the day's listing sync (100,000 transactions, as the sync bench) into
 * a till that sold through an outage, with 200 outage sales still unconfirmed whose payments
 * are in the listing: each of them is matched by its exact amount in the outage's window as its
 * row is stored (engine/outage-matching.ts). Beside it, in the same run against the same
 * sandbox, the same sync into the same till without the outage account and its sales (the 200
 * rows are then money no till here made, stored and left to the report). Both runs hand every
 * row the sync reports to a real sales engine, as the till does. Judged ≤ 1.2×: matching a day's
 * outage sales costs a bounded read per outage payment, not a pass over the sales.
 *
 * Quick mode (CI): 50,000 transactions (100 outage sales), three rounds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { systemScheduler } from '#main/clock/scheduler';
import { SANDBOX_DB_FILE } from '#main/config/data-files';
import { createCallbackHealth } from '#main/engine/callback-health';
import { createSalesEngine } from '#main/engine/sales-engine';
import { createProviderClient } from '#main/provider/client';
import { createReferenceGenerator } from '#main/provider/references';
import { insertPendingAccount, markAccountActive } from '#main/store/accounts-repo';
import { openDatabase, type Db } from '#main/store/database';
import { insertOutageSale } from '#main/store/sales-repo';
import { createTransactionSync } from '#main/sync/sync';
import { TEST_SETTINGS } from '#support/sales-harness';
import { repetitions, summarise, type BenchContext, type BenchFigure } from './bench-figure';
import { describeOrders, interleave } from './interleave';
import { seedSandboxTransactions, startSandboxProcess, type SandboxProcess } from './sandbox-seed';

const TOTAL = 100_000;
const QUICK_TOTAL = 50_000;
/** One sandbox account in 500 takes the outage payments: 200 of 100,000 rows. */
const ACCOUNTS = 500;
/** Account 1 (rows 1, 501, ...): every one a success in the seed (a failed row is i % 20 = 0). */
const OUTAGE_ACCOUNT = 1;
const PAGE = 100;
const RATIO_MAX = 1.2;
const SEED_START = Date.UTC(2026, 9, 1);

/** The seed's amount of row i (bench/sandbox-seed.ts). */
function seededAmount(i: number): number {
  return 100 + ((i * 7919) % 5_000_000);
}

/** The till's outage account (the sandbox's account 1) and one outage sale per payment into it. */
function sellThroughOutage(db: Db, total: number): number {
  const pending = insertPendingAccount(
    db,
    {
      type: 'static-flex',
      purpose: 'outage',
      reference: `COUNTER-${OUTAGE_ACCOUNT}`,
      amountKobo: null,
      expiryMinutes: null,
      callbackUrl: null,
    },
    SEED_START,
  );
  const account = markAccountActive(
    db,
    pending.id,
    {
      providerReference: `SBX-BENCH-${OUTAGE_ACCOUNT}`,
      accountNumber: `990000000${OUTAGE_ACCOUNT}`,
      accountName: 'Bench',
      bank: 'Sandbox',
      expiresAt: null,
    },
    SEED_START,
  );
  let sales = 0;
  for (let i = OUTAGE_ACCOUNT; i < total; i += ACCOUNTS) {
    // Asked for exactly the row's amount: the price is a kobo under it (kobo tag 1).
    const sale = insertOutageSale(
      db,
      {
        accountId: account.id,
        amountKobo: seededAmount(i) - 1,
        note: null,
        cashier: 'Bench',
        tillId: TEST_SETTINGS.tillId,
        reference: `OUTAGE-BENCH-${i}`,
      },
      SEED_START + i * 1000 - 60_000,
    );
    if (sale?.amountDueKobo !== seededAmount(i))
      throw new Error(`outage sale ${i} asks another amount`);
    sales += 1;
  }
  return sales;
}

async function syncOnce(
  sandbox: SandboxProcess,
  file: string,
  total: number,
  outage: boolean,
): Promise<{ ms: number; paid: number }> {
  const db = openDatabase({ path: file });
  const expected = outage ? sellThroughOutage(db, total) : 0;
  const client = createProviderClient({
    baseUrl: sandbox.baseUrl,
    payoutBaseUrl: sandbox.payoutBaseUrl,
    secretKey: sandbox.secretKey,
    accessToken: sandbox.accessToken,
  });
  const logger = pino({ level: 'silent' });
  const health = createCallbackHealth({
    now: () => systemScheduler.now(),
    setTimer: (delayMs, fn) => systemScheduler.setTimer(delayMs, fn),
    route: () => ({ mode: 'polling-only', reason: 'bench' }),
  });
  const engine = createSalesEngine({
    db,
    client: () => client,
    references: createReferenceGenerator({ clock: () => systemScheduler.now() }),
    scheduler: systemScheduler,
    logger,
    settings: () => TEST_SETTINGS,
    callbackTarget: () => ({ url: 'http://127.0.0.1:9/unused', live: false }),
    callbackHealth: health,
    events: {
      saleChanged: () => undefined,
      inflowRecorded: () => undefined,
      alertChanged: () => undefined,
    },
  });
  const sync = createTransactionSync({
    db,
    client: () => client,
    scheduler: systemScheduler,
    logger,
    onRow: (tx, listed) => engine.recordListedTransaction(tx, listed),
    events: { progress: () => undefined, finished: () => undefined },
    pageLimit: PAGE,
  });
  const started = performance.now();
  const run = await sync.run({ mode: 'full', trigger: 'bench' });
  await engine.idle();
  const ms = performance.now() - started;
  const paid = (
    db.prepare(`SELECT COUNT(*) AS n FROM sales WHERE state = 'paid'`).get() as { n: number }
  ).n;
  engine.close();
  health.close();
  db.close();
  if (run.status !== 'complete') throw new Error(`sync did not complete: ${run.error ?? ''}`);
  if (paid !== expected) throw new Error(`${paid} outage sales paid, not ${expected}`);
  return { ms, paid };
}

export async function run(context: BenchContext): Promise<readonly BenchFigure[]> {
  const total = context.quick ? QUICK_TOTAL : TOTAL;
  const dir = mkdtempSync(join(tmpdir(), 'till-outage-bench-'));
  seedSandboxTransactions(join(dir, SANDBOX_DB_FILE), {
    total,
    accounts: ACCOUNTS,
    startMs: SEED_START,
  });
  const sandbox = await startSandboxProcess(dir);
  try {
    let store = 0;
    const file = () => join(dir, `till-${(store += 1)}.sqlite`);
    const { results, orders } = await interleave(
      {
        plain: () => syncOnce(sandbox, file(), total, false),
        outage: () => syncOnce(sandbox, file(), total, true),
      },
      repetitions(context),
      context.seed,
    );
    const outage = summarise(results.outage.map((r) => r.ms / 1000));
    const plain = summarise(results.plain.map((r) => r.ms / 1000));
    const sales = results.outage[0]?.paid ?? 0;
    return [
      {
        name: `sync ${total.toLocaleString('en')} transactions matching ${sales} outage sales, wall time`,
        value: outage.median,
        spread: outage.spread,
        unit: 's',
        baselineName: 'the same sync into the same till without outage sales',
        baseline: plain.median,
        baselineSpread: plain.spread,
        ratioTarget: { max: RATIO_MAX },
        note: `${sales} outage sales each paid by its exact amount as its row is stored; pages of ${PAGE}, sandbox in its own process; order per round (seed ${context.seed}): ${describeOrders(orders)}`,
      },
    ];
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
