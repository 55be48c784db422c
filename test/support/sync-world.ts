/**
 * The sync against the real sandbox over HTTP: a shared sandbox on a manual clock, quick ways
 * to fill its ledger through the control API, and fetch wrappers that observe or bend the
 * listing (fail once, hang, list newest first) while every byte still comes from the sandbox.
 */
import { pino } from 'pino';
import type { SyncProgressView, SyncRunView } from '#shared/views';
import { ManualScheduler } from './clock';
import { createProviderClient, type ProviderClient } from '#main/provider/client';
import type { TransactionRecord } from '#main/provider/schemas';
import { startSandboxProvider, type SandboxProvider } from '#main/sandbox';
import type { Db } from '#main/store/database';
import { createTestDb } from './database';
import type { ListedRowChange } from '#main/sync/listing-page';
import { createTransactionSync, type TransactionSync } from '#main/sync/sync';

export interface LedgerRow {
  readonly session_id: string;
  readonly status: 'success' | 'failed' | 'pending';
  readonly amount_kobo: number;
}

export interface SyncWorld {
  readonly scheduler: ManualScheduler;
  readonly sandbox: SandboxProvider;
  readonly accounts: readonly string[];
  control(path: string, body?: unknown, method?: string): Promise<unknown>;
  /** `count` transfers of random whole amounts, `parallel` at a time, one clock second apart. */
  transfers(count: number, options?: { readonly pendingMs?: number }): Promise<void>;
  ledger(): Promise<readonly LedgerRow[]>;
  close(): Promise<void>;
}

export async function startSyncWorld(accountCount = 4): Promise<SyncWorld> {
  const scheduler = new ManualScheduler(Date.UTC(2026, 10, 22, 8, 0, 0));
  const sandbox = await startSandboxProvider({ now: () => scheduler.now(), seed: 5 });
  const client = plainClient(sandbox);
  const accounts: string[] = [];
  for (let i = 0; i < accountCount; i++) {
    const account = await client.createVirtualAccount({
      reference: `SYNC-FLEX-${i}`,
      accountName: 'Mama Put',
      merchantId: 'M-1',
      type: 'static-flex',
      callbackUrl: 'http://127.0.0.1:9/unused',
    });
    accounts.push(account.accountNumber);
  }
  let next = 0;

  async function control(path: string, body?: unknown, method?: string): Promise<unknown> {
    const response = await fetch(`${sandbox.controlUrl}${path}`, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new Error(`control ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  }

  return {
    scheduler,
    sandbox,
    accounts,
    control,
    async transfers(count, options = {}) {
      const batch = 100;
      for (let done = 0; done < count; done += batch) {
        const size = Math.min(batch, count - done);
        await Promise.all(
          Array.from({ length: size }, () => {
            next += 1;
            return control('/transfers', {
              account_number: accounts[next % accounts.length],
              amount: 100 + (next % 9000) + (next % 7) / 4,
              ...(options.pendingMs === undefined ? {} : { pending_ms: options.pendingMs }),
            });
          }),
        );
        // Distinct provider dates batch after batch: the listing's order shows in them.
        await scheduler.advance(1000);
      }
    },
    async ledger() {
      const body = (await control('/ledger')) as { transactions: LedgerRow[] };
      return body.transactions;
    },
    close: () => sandbox.close(),
  };
}

export function plainClient(sandbox: SandboxProvider, fetchImpl?: typeof fetch): ProviderClient {
  return createProviderClient({
    baseUrl: sandbox.baseUrl,
    payoutBaseUrl: sandbox.payoutBaseUrl,
    secretKey: sandbox.secretKey,
    accessToken: sandbox.accessToken,
    timeoutMs: 5_000,
    readRetry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
}

/** The offset and limit of a listing request, or null for any other request. */
export function listingRequest(input: Parameters<typeof fetch>[0]): {
  offset: number;
  limit: number;
} | null {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (!url.pathname.endsWith('/virtual/transactions')) return null;
  return {
    offset: Number(url.searchParams.get('offset') ?? 0),
    limit: Number(url.searchParams.get('limit') ?? 0),
  };
}

/** Calls `before` ahead of each listing request (it may wait, throw, or change the sandbox). */
export function observingFetch(
  before: (
    page: { offset: number; limit: number },
    signal: AbortSignal | undefined,
  ) => Promise<void> | void,
): typeof fetch {
  return async (input, init) => {
    const page = listingRequest(input);
    if (page) await before(page, init?.signal ?? undefined);
    return fetch(input, init);
  };
}

/**
 * The sandbox's listing with some rows spoilt: `spoil` may return a changed copy of a wire row
 * (a missing session_id, an impossible date...) or undefined to leave it. The rest of the body
 * is the sandbox's, byte for byte in meaning.
 */
export function spoilingFetch(
  spoil: (row: Record<string, unknown>) => unknown,
  inner: typeof fetch = fetch,
): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!listingRequest(input) || !response.ok) return response;
    const body = (await response.json()) as {
      status: string;
      data: { count: number; transactions: Record<string, unknown>[] };
    };
    const transactions = body.data.transactions.map((row) => spoil(row) ?? row);
    return new Response(JSON.stringify({ ...body, data: { ...body.data, transactions } }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

/**
 * The sandbox's listing turned around: newest first, as a real provider might list. Offset o
 * of this listing is the window [count - o - limit, count - o) of the sandbox's, reversed, so
 * a transfer made between two pages pushes every row one place back (rows repeat across pages).
 */
export function newestFirstFetch(
  sandbox: SandboxProvider,
  before?: (page: { offset: number; limit: number }) => Promise<void> | void,
): typeof fetch {
  return async (input, init) => {
    const page = listingRequest(input);
    if (!page) return fetch(input, init);
    if (before) await before(page);
    const headers = { secretKey: sandbox.secretKey };
    const probe = (await (
      await fetch(`${sandbox.baseUrl}/virtual/transactions?offset=0&limit=1`, { headers })
    ).json()) as { data: { count: number } };
    const count = probe.data.count;
    const end = Math.max(0, count - page.offset);
    const start = Math.max(0, end - page.limit);
    let transactions: unknown[] = [];
    if (end > start) {
      const window = (await (
        await fetch(
          `${sandbox.baseUrl}/virtual/transactions?offset=${start}&limit=${end - start}`,
          { headers },
        )
      ).json()) as { data: { transactions: unknown[] } };
      transactions = [...window.data.transactions].reverse();
    }
    return new Response(JSON.stringify({ status: 'success', data: { count, transactions } }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

export interface SyncUnderTest {
  readonly db: Db;
  readonly sync: TransactionSync;
  readonly progress: SyncProgressView[];
  readonly finished: SyncRunView[];
  readonly notified: TransactionRecord[];
  /** What changed, for each of `notified`. */
  readonly changes: ListedRowChange[];
  /** Offsets of the listing requests, in the order they were sent. */
  readonly requested: number[];
  inflowCount(): number;
}

export function createSyncUnderTest(
  world: SyncWorld,
  options: {
    readonly fetch?: typeof fetch;
    readonly db?: Db;
    readonly pageLimit?: number;
    readonly readAhead?: number;
    readonly onRow?: (tx: TransactionRecord, change: ListedRowChange) => void;
  } = {},
): SyncUnderTest {
  const db = options.db ?? createTestDb().db;
  const progress: SyncProgressView[] = [];
  const finished: SyncRunView[] = [];
  const notified: TransactionRecord[] = [];
  const changes: ListedRowChange[] = [];
  const requested: number[] = [];
  const inner = options.fetch ?? fetch;
  const recording: typeof fetch = (input, init) => {
    const page = listingRequest(input);
    if (page) requested.push(page.offset);
    return inner(input, init);
  };
  const client = plainClient(world.sandbox, recording);
  const sync = createTransactionSync({
    db,
    client: () => client,
    scheduler: world.scheduler,
    logger: pino({ level: 'silent' }),
    onRow: (tx, change) => {
      notified.push(tx);
      changes.push(change);
      options.onRow?.(tx, change);
    },
    events: {
      progress: (p) => progress.push(p),
      finished: (run) => finished.push(run),
    },
    pageLimit: options.pageLimit ?? 50,
    ...(options.readAhead === undefined ? {} : { readAhead: options.readAhead }),
  });
  return {
    db,
    sync,
    progress,
    finished,
    notified,
    changes,
    requested,
    inflowCount: () => (db.prepare('SELECT COUNT(*) AS n FROM inflows').get() as { n: number }).n,
  };
}

/** Every ledger row is stored exactly once with the ledger's status and amount. */
export function storedMatchesLedger(db: Db, ledger: readonly LedgerRow[]): string[] {
  const stored = new Map(
    (
      db
        .prepare('SELECT session_id AS sessionId, status, amount_kobo AS amountKobo FROM inflows')
        .all() as { sessionId: string; status: string; amountKobo: number }[]
    ).map((row) => [row.sessionId, row]),
  );
  const problems: string[] = [];
  if (stored.size !== ledger.length)
    problems.push(`stored ${stored.size}, ledger ${ledger.length}`);
  for (const row of ledger) {
    const mine = stored.get(row.session_id);
    if (!mine) problems.push(`missing ${row.session_id}`);
    else if (mine.status !== row.status || mine.amountKobo !== row.amount_kobo) {
      problems.push(
        `${row.session_id}: ${mine.status}/${mine.amountKobo} vs ${row.status}/${row.amount_kobo}`,
      );
    }
  }
  return problems.slice(0, 5);
}
