/**
 * Sync figure: a full sync of 100,000 transactions from the sandbox provider into a real store
 * file (WAL, synchronous=FULL), pages of 100 (the sandbox's maximum), through the real client
 * (timeouts, zod parsing, Lagos dates) and the real sync (one transaction per page, resume
 * offset, order detection, read-ahead of two pages).
 *
 * Beside it, in the same run against the same sandbox, the raw limit: the same pages fetched
 * with nothing but fetch + JSON.parse (same read-ahead), then one bulk INSERT of the same rows
 * in one transaction into an empty store.
 *
 * The sandbox runs in its own process (the provider is another machine), started with its CLI
 * on a database seeded directly through its state module: 100,000 transfers through the
 * control API would take minutes and measure the sandbox, not the sync.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { systemScheduler } from '../src/main/engine/scheduler';
import { createProviderClient } from '../src/main/provider/client';
import { createTransactionSync } from '../src/main/reports/sync';
import { SANDBOX_DB_FILE } from '../src/main/sandbox/cli-args';
import { openDatabase } from '../src/main/store/database';
import type { BenchFigure } from './bench-figure';
import { seedSandboxTransactions, startSandboxProcess, type SandboxProcess } from './sandbox-seed';

const TOTAL = 100_000;
const PAGE = 100;
const READ_AHEAD = 2;
const ACCOUNTS = 4;
const TARGET_SECONDS = 10;

type Sandbox = SandboxProcess;

/** The sandbox's own database, filled in one transaction: one transfer per second of history. */
function seedSandbox(dir: string): void {
  seedSandboxTransactions(join(dir, SANDBOX_DB_FILE), { total: TOTAL, accounts: ACCOUNTS });
}

interface RawRow {
  readonly amount: number;
  readonly status: string;
  readonly session_id: string;
  readonly external_reference: string;
  readonly date: string;
}

/** The raw limit: pages with fetch + JSON.parse only (same read-ahead), then one bulk insert. */
async function rawLimit(sandbox: Sandbox, dir: string): Promise<{ ms: number; rows: number }> {
  const started = performance.now();
  const page = async (offset: number) => {
    const response = await fetch(
      `${sandbox.baseUrl}/virtual/transactions?offset=${offset}&limit=${PAGE}`,
      { headers: { secretKey: sandbox.secretKey } },
    );
    return (await response.json()) as { data: { count: number; transactions: RawRow[] } };
  };
  const first = await page(0);
  const count = first.data.count;
  const rows: RawRow[] = [...first.data.transactions];
  const inFlight = new Map<number, ReturnType<typeof page>>();
  let next = PAGE;
  for (let offset = PAGE; offset < count; offset += PAGE) {
    while (next < count && next <= offset + READ_AHEAD * PAGE) {
      inFlight.set(next, page(next));
      next += PAGE;
    }
    const body = await (inFlight.get(offset) ?? page(offset));
    inFlight.delete(offset);
    rows.push(...body.data.transactions);
  }
  const db = openDatabase({ path: join(dir, 'raw.sqlite') });
  const insert = db.prepare(
    `INSERT INTO inflows (session_id, external_reference, amount_kobo, status, provider_date,
       occurred_at, source, last_source, first_seen_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'listing', 'listing', 0, 0)`,
  );
  db.transaction(() => {
    for (const row of rows) {
      insert.run(
        row.session_id,
        row.external_reference,
        Math.round(row.amount * 100),
        row.status,
        row.date,
        0,
      );
    }
  })();
  db.close();
  return { ms: performance.now() - started, rows: rows.length };
}

async function syncOnce(sandbox: Sandbox, dir: string): Promise<{ ms: number; rows: number }> {
  const db = openDatabase({ path: join(dir, 'till.sqlite') });
  const client = createProviderClient({
    baseUrl: sandbox.baseUrl,
    payoutBaseUrl: sandbox.payoutBaseUrl,
    secretKey: sandbox.secretKey,
    accessToken: sandbox.accessToken,
  });
  const sync = createTransactionSync({
    db,
    client: () => client,
    scheduler: systemScheduler,
    logger: pino({ level: 'silent' }),
    events: { progress: () => undefined, finished: () => undefined },
    pageLimit: PAGE,
    readAhead: READ_AHEAD,
  });
  const started = performance.now();
  const run = await sync.run({ mode: 'full', trigger: 'bench' });
  const ms = performance.now() - started;
  const stored = (db.prepare('SELECT COUNT(*) AS n FROM inflows').get() as { n: number }).n;
  db.close();
  if (run.status !== 'complete' || stored !== TOTAL) {
    throw new Error(`sync did not complete: ${run.status} ${run.error ?? ''}, ${stored} rows`);
  }
  return { ms, rows: stored };
}

export async function run(): Promise<readonly BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'till-sync-bench-'));
  seedSandbox(dir);
  const sandbox = await startSandboxProcess(dir);
  try {
    const raw = await rawLimit(sandbox, dir);
    const synced = await syncOnce(sandbox, dir);
    const rawPerSecond = raw.rows / (raw.ms / 1000);
    const syncPerSecond = synced.rows / (synced.ms / 1000);
    const withinTwice = synced.ms <= 2 * raw.ms;
    const underTen = synced.ms < TARGET_SECONDS * 1000;
    return [
      {
        name: `sync ${TOTAL.toLocaleString('en')} transactions into the store`,
        value: syncPerSecond,
        unit: 'rows/s',
        baselineName: 'raw: fetch+JSON.parse, one bulk insert',
        baseline: rawPerSecond,
        target: '≥ 0.5× raw',
        pass: withinTwice,
        note: `sync ${(synced.ms / 1000).toFixed(2)} s vs raw ${(raw.ms / 1000).toFixed(2)} s (${(synced.ms / raw.ms).toFixed(2)}×); pages of ${PAGE}, read-ahead ${READ_AHEAD}, sandbox in its own process`,
      },
      {
        name: `sync ${TOTAL.toLocaleString('en')} transactions, wall time`,
        value: synced.ms / 1000,
        unit: 's',
        baselineName: 'raw limit, wall time',
        baseline: raw.ms / 1000,
        target: `< ${TARGET_SECONDS} s`,
        pass: underTen,
      },
    ];
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
