import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { SaleView } from '#shared/sales';
import { createProviderClient, type ProviderClient } from '#main/provider/client';
import { createReferenceGenerator, type ReferenceGenerator } from '#main/provider/references';
import { startSandboxProvider, type SandboxProvider } from '#main/sandbox';
import type { AlertRow } from '#main/store/alerts-repo';
import { openDatabase, type Db } from '#main/store/database';
import type { InflowRow } from '#main/store/inflows-repo';
import { createStoreSpace, type StoreSpace } from '#main/store/store-space';
import { createCallbackHealth, type CallbackHealthMonitor } from '#main/engine/callback-health';
import { DEFAULT_CHECK_POLICY, type CheckPolicy } from '#main/engine/check-schedule';
import {
  createSalesEngine,
  type CallbackHint,
  type EngineSettings,
  type SalesEngine,
} from '#main/engine/sales-engine';
import { createTransactionSync, type TransactionSync } from '#main/sync/sync';
import { ManualScheduler } from './clock';

export const TEST_SETTINGS: EngineSettings = {
  accountName: 'Mama Put Store',
  merchantId: 'MERCHANT-1',
  merchantCategory: 'others',
  expiryMinutes: 15,
  maxSaleKobo: 500_000_000,
  tillId: 'till-1',
  standingFlagAboveKobo: 0,
  outage: { policy: 'wait', allowByChoice: false },
};

/**
 * A sales engine wired to real parts: the sandbox provider over real HTTP, a real SQLite file,
 * and a real HTTP receiver for callbacks that hands each body to the engine as a hint. Only the
 * clock is fake (shared by the engine and the sandbox), so expiry and backoff run in fake time.
 */
export interface Harness {
  readonly scheduler: ManualScheduler;
  readonly sandbox: SandboxProvider;
  readonly db: Db;
  readonly dbPath: string;
  /** With options.storeSpace: the monitor the engine was given. */
  readonly storeSpace: StoreSpace | undefined;
  engine: SalesEngine;
  readonly client: ProviderClient;
  readonly saleEvents: SaleView[];
  readonly inflowEvents: InflowRow[];
  readonly alerts: AlertRow[];
  /** Callback bodies the receiver got. */
  readonly callbacks: Record<string, unknown>[];
  /** Where the receiver listens: the address a new account sends its callbacks to. */
  readonly callbackUrl: string;
  /** Whether callbacks count as live (false = polling-only mode). */
  live: boolean;
  /** The real callback-health monitor, told of every callback the receiver gets. */
  readonly health: CallbackHealthMonitor;
  settle(): Promise<void>;
  advance(ms: number): Promise<void>;
  transfer(
    accountNumber: string,
    amountNaira: number,
    pendingMs?: number,
  ): Promise<Record<string, unknown>>;
  control(path: string, body?: unknown, method?: string): Promise<unknown>;
  restartEngine(): SalesEngine;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly live?: boolean;
  readonly references?: ReferenceGenerator;
  readonly clientFetch?: typeof fetch;
  /** The provider client's timeout (default 5 s), low for the sandbox's timeout fault. */
  readonly clientTimeoutMs?: number;
  readonly settings?: Partial<EngineSettings>;
  /** Changes to the engine's check policy (e.g. a short grace period). */
  readonly policy?: Partial<CheckPolicy>;
  /** Gives the engine the store's space monitor (a full disk refuses sales, holds payments). */
  readonly storeSpace?: boolean;
  /** The engine's answer to "can the provider be reached?" (default: its own evidence). */
  readonly providerUnreachable?: () => boolean;
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const scheduler = new ManualScheduler();
  const dir = mkdtempSync(join(tmpdir(), 'till-engine-'));
  const callbacks: Record<string, unknown>[] = [];

  const receiver: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      callbacks.push(body);
      response.writeHead(200).end();
      const hint: CallbackHint = {
        reference: typeof body['reference'] === 'string' ? body['reference'] : undefined,
        sessionId: typeof body['session_id'] === 'string' ? body['session_id'] : undefined,
        status: typeof body['status'] === 'string' ? body['status'] : undefined,
      };
      health.callbackReceived({
        at: scheduler.now(),
        ...(hint.reference ? { reference: hint.reference } : {}),
        ...(hint.sessionId ? { sessionId: hint.sessionId } : {}),
      });
      void harness.engine.handleCallback(null, hint);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks/test`;
  // Read by the health monitor as soon as it is made, before the harness exists.
  const route = { live: options.live ?? true };
  const health = createCallbackHealth({
    now: () => scheduler.now(),
    setTimer: (delayMs, fn) => scheduler.setTimer(delayMs, fn),
    route: () =>
      route.live
        ? { mode: 'local-sandbox', callbackUrl }
        : { mode: 'polling-only', reason: 'The test took callbacks down.' },
  });

  const sandbox = await startSandboxProvider({
    now: () => scheduler.now(),
    callbackRetryDelaysMs: [10, 20],
    callbackTimeoutMs: 2_000,
  });
  const client = createProviderClient({
    baseUrl: sandbox.baseUrl,
    payoutBaseUrl: sandbox.payoutBaseUrl,
    secretKey: sandbox.secretKey,
    accessToken: sandbox.accessToken,
    timeoutMs: options.clientTimeoutMs ?? 5_000,
    readRetry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    ...(options.clientFetch ? { fetch: options.clientFetch } : {}),
  });
  const dbPath = join(dir, 'till.sqlite');
  const db = openDatabase({ path: dbPath });
  const storeSpace = options.storeSpace ? createStoreSpace(db, () => scheduler.now()) : undefined;
  const saleEvents: SaleView[] = [];
  const inflowEvents: InflowRow[] = [];
  const alerts: AlertRow[] = [];
  const references =
    options.references ?? createReferenceGenerator({ clock: () => scheduler.now() });

  function buildEngine(): SalesEngine {
    return createSalesEngine({
      db,
      client: () => client,
      references,
      scheduler,
      logger: pino({ level: 'silent' }),
      settings: () => ({ ...TEST_SETTINGS, ...options.settings }),
      callbackTarget: () => ({ url: callbackUrl, live: route.live }),
      callbackHealth: health,
      policy: { ...DEFAULT_CHECK_POLICY, ...options.policy },
      ...(storeSpace ? { storeSpace } : {}),
      ...(options.providerUnreachable ? { providerUnreachable: options.providerUnreachable } : {}),
      events: {
        saleChanged: (view) => saleEvents.push(view),
        inflowRecorded: (row) => inflowEvents.push(row),
        alertChanged: (row) => alerts.push(row),
      },
    });
  }

  async function control(
    path: string,
    body?: unknown,
    method = body === undefined ? 'GET' : 'POST',
  ) {
    const response = await fetch(`${sandbox.controlUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return response.json();
  }

  /** Lets callbacks in flight arrive and the engine's work finish. */
  async function settle(): Promise<void> {
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 15));
      await harness.engine.idle();
    }
  }

  const harness: Harness = {
    scheduler,
    sandbox,
    db,
    dbPath,
    storeSpace,
    engine: buildEngine(),
    client,
    saleEvents,
    inflowEvents,
    alerts,
    callbacks,
    callbackUrl,
    get live() {
      return route.live;
    },
    set live(value: boolean) {
      route.live = value;
    },
    health,
    settle,
    advance: (ms) => scheduler.advance(ms, settle),
    transfer: async (accountNumber, amountNaira, pendingMs) =>
      (await control('/transfers', {
        account_number: accountNumber,
        amount: amountNaira,
        ...(pendingMs === undefined ? {} : { pending_ms: pendingMs }),
      })) as Record<string, unknown>,
    control,
    restartEngine() {
      harness.engine.close();
      harness.engine = buildEngine();
      return harness.engine;
    },
    async close() {
      harness.engine.close();
      health.close();
      await sandbox.close();
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      db.close();
    },
  };

  return harness;
}

/** The listing sync over a harness's provider and database, its rows handed to its engine. */
export function harnessSync(harness: Harness): TransactionSync {
  return createTransactionSync({
    db: harness.db,
    client: () => harness.client,
    scheduler: harness.scheduler,
    logger: pino({ level: 'silent' }),
    onRow: (tx, change) => harness.engine.recordListedTransaction(tx, change),
    events: { progress: () => undefined, finished: () => undefined },
  });
}
