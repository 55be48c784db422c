import { join } from 'node:path';
import {
  payoutChannels,
  saleChannels,
  syncChannels,
  type BridgeEvent,
  type HandlersOf,
} from '#shared/bridge/contract';
import { businessDay } from '#shared/provider-time';
import { formatDateTime } from '#shared/report-words';
import { ENVIRONMENT_NAMES, type Environment } from '#shared/settings-schema';
import { referencePrefix } from '#shared/till-id';
import { payeeNameOf } from '#shared/go-live';
import type { SyncRunView } from '#shared/views';
import { sandboxDbPath, tillDbPath } from '#main/config/data-files';
import type { CallbackHealth } from '#main/engine/callback-health';
import {
  createSalesEngine,
  type EngineSettings,
  type SalesEngine,
} from '#main/engine/sales-engine';
import type { Scheduler } from '#main/engine/scheduler';
import type { Logger } from '#main/logging/logger';
import { createProviderClient, type ProviderClient } from '#main/provider/client';
import type { ReadRetryPolicy } from '#main/provider/read-retry';
import { createReferenceGenerator } from '#main/provider/references';
import { checkPayout, getBalanceView } from '#main/payouts/balance';
import { startSandboxProvider } from '#main/sandbox';
import type { SecretStore } from '#main/secrets/secret-store';
import type { SettingsStore } from '#main/settings/settings-store';
import { listOpenAlerts } from '#main/store/alerts-repo';
import { dailyBackup } from '#main/store/backup';
import { openDatabase, type Db } from '#main/store/database';
import { createStoreSpace, type StoreSpace } from '#main/store/store-space';
import { createTransactionSync, type TransactionSync } from '#main/sync/sync';
import type { CallbackRoute } from '#main/tunnel';
import { parseNairaInput } from './amount-input';
import { startDiskFullWatch } from './disk-full-watch';
import { startMaintenanceSchedule } from './maintenance-schedule';
import { chooseSandbox, openSandboxLink } from './sandbox-link';
import { StandaloneSandboxError } from './standalone-sandbox';
import { saleHandlers } from './sale-handlers';
import { alertView, inflowView } from './views';
import { AppError } from '#shared/errors';

export class NotConfiguredError extends AppError<'NOT_CONFIGURED'> {
  constructor(message: string, field?: string) {
    super('NOT_CONFIGURED', message, field === undefined ? {} : { field });
    this.name = 'NotConfiguredError';
  }
}

/**
 * The channels whose work needs one provider environment's client, engine or sync (not only its
 * database): the runtime answers them, and a switch of environment rebuilds it.
 */
export const runtimeChannels = { ...saleChannels, ...syncChannels, ...payoutChannels } as const;
export type RuntimeChannel = keyof typeof runtimeChannels;
export const RUNTIME_CHANNELS = Object.keys(runtimeChannels) as readonly RuntimeChannel[];

export interface Runtime {
  readonly environment: Environment;
  readonly db: Db;
  /** Whether the store can write (a full disk refuses new sales until space returns). */
  readonly storeSpace: StoreSpace;
  /** The sandbox provider in use on the SANDBOX profile: the embedded one or a standalone. */
  readonly sandbox: {
    readonly kind: 'embedded' | 'standalone';
    readonly controlUrl: string;
  } | null;
  readonly engine: SalesEngine;
  readonly sync: TransactionSync;
  readonly handlers: HandlersOf<typeof runtimeChannels>;
  /** The sandbox's client, for "Test connection" on the sandbox profile (throws when unreadable). */
  sandboxClient(): { readonly client: ProviderClient; readonly payoutAccountId: string } | null;
  openAlertCount(): number;
  lastSync(): SyncRunView | null;
  /** Resumes unfinished sales and syncs, starts the sync schedule and the daily backup. */
  start(): void;
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  readonly environment: Environment;
  readonly dataDir: string;
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly emit: (event: BridgeEvent) => void;
  readonly callbackRoute: () => CallbackRoute;
  /** Whether callbacks are proven to reach the till; the engine checks faster when they do not. */
  readonly callbackHealth: CallbackHealth;
  /** The provider client's timeout for each exchange (default: the client's own). */
  readonly providerTimeoutMs?: number;
  /** The provider client's read retries (default: the client's own). */
  readonly providerReadRetry?: ReadRetryPolicy;
  readonly sqliteNativeBinding?: string;
  readonly sandboxPort?: number;
}

/** One provider environment: its own database, provider client, sales engine and sync. */
export async function openRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { environment, settings, secrets, scheduler, logger, emit } = options;
  // The embedded sandbox, or a standalone one shared by several tills (profiles.sandbox.sandboxUrl).
  const sandboxChoice =
    environment === 'sandbox'
      ? await chooseSandbox({
          sandboxUrl: () => settings.get().profiles.sandbox.sandboxUrl,
          onSettingsChange: (listener) => settings.subscribe(listener),
          open: (sandboxUrl) =>
            openSandboxLink({
              sandboxUrl,
              startEmbedded: () =>
                startSandboxProvider({
                  dbPath: sandboxDbPath(options.dataDir),
                  port: options.sandboxPort ?? 0,
                  // One clock for the till and its sandbox, so a fast-forwarded clock moves both.
                  now: () => scheduler.now(),
                  onError: (error) => logger.warn({ err: error }, 'sandbox provider error'),
                }),
              onReadFailed: (error) => logger.warn({ err: error }, 'shared sandbox unreadable'),
            }),
          onSwitchFailed: (error) =>
            logger.error({ err: error }, 'switching the sandbox provider failed'),
        })
      : null;
  const sandbox = () => sandboxChoice?.link() ?? null;
  const db = openDatabase({
    path: tillDbPath(options.dataDir, environment),
    nativeBinding: options.sqliteNativeBinding,
  });
  const storeSpace = createStoreSpace(db, () => scheduler.now());
  const diskFullWatch = startDiskFullWatch({
    db,
    space: storeSpace,
    scheduler,
    logger,
    emit,
    timeText: (at) => formatDateTime(at, settings.get().timeZone),
  });

  let cached: { key: string; client: ProviderClient } | null = null;
  function client(): ProviderClient {
    const current = settings.get();
    const profile = current.profiles[environment];
    const link = sandbox();
    const connection = link?.connection();
    const config = connection
      ? {
          baseUrl: connection.baseUrl,
          payoutBaseUrl: connection.payoutBaseUrl,
          secretKey: connection.secretKey,
          accessToken: connection.accessToken,
        }
      : {
          baseUrl: profile.baseUrl,
          // Balance calls check that the payout base URL is set before they run (see
          // payoutAccountId); sales need only the base URL.
          payoutBaseUrl: profile.payoutBaseUrl || profile.baseUrl,
          secretKey: secrets.get(environment, 'secretKey') ?? '',
          accessToken: secrets.get(environment, 'accessToken') ?? '',
        };
    if (!config.baseUrl || !config.secretKey) {
      throw new NotConfiguredError(
        `${ENVIRONMENT_NAMES[environment]} is not set up yet: enter its base URL and secret key in Settings (the provider's support team gives them).`,
        !config.baseUrl ? 'baseUrl' : 'secretKey',
      );
    }
    const key = JSON.stringify([config, current.timeZone]);
    if (cached?.key !== key) {
      cached = {
        key,
        client: createProviderClient({
          ...config,
          timeZone: current.timeZone,
          ...(options.providerTimeoutMs === undefined
            ? {}
            : { timeoutMs: options.providerTimeoutMs }),
          ...(options.providerReadRetry ? { readRetry: options.providerReadRetry } : {}),
        }),
      };
    }
    return cached.client;
  }

  function engineSettings(): EngineSettings {
    const current = settings.get();
    const profile = current.profiles[environment];
    return {
      accountName: payeeNameOf(profile.accountName, current.shop.name),
      merchantId: profile.merchantId || (sandboxChoice ? 'SANDBOX-MERCHANT' : ''),
      merchantCategory: profile.merchantCategory,
      expiryMinutes: profile.expiryMinutes,
      maxSaleKobo: current.maxSaleKobo,
      tillId: current.shop.tillId,
      standingFlagAboveKobo: current.standingAccounts.flagAboveKobo,
    };
  }

  function payoutAccountId(): string {
    const link = sandbox();
    const id = link
      ? link.connection().payoutAccountId
      : settings.get().profiles[environment].payoutAccountId;
    if (!id) {
      throw new NotConfiguredError(
        'Enter the payout account number in Settings (the provider gives it with the access token).',
        'payoutAccountId',
      );
    }
    return id;
  }

  const engine = createSalesEngine({
    db,
    client,
    references: createReferenceGenerator({
      // Asked at each reference: a till id changed in Settings names the next sale at once.
      prefix: () => referencePrefix(settings.get().shop.tillId),
      clock: () => scheduler.now(),
      timeZone: settings.get().timeZone,
    }),
    scheduler,
    logger,
    settings: engineSettings,
    callbackTarget: () => {
      const route = options.callbackRoute();
      return route.mode === 'polling-only'
        ? // The provider requires a callback_url; with no public route we give the local one
          // (unreachable from the internet, so harmless) and poll.
          { url: localCallbackUrl(), live: false }
        : { url: route.callbackUrl, live: true };
    },
    callbackHealth: options.callbackHealth,
    storeSpace,
    events: {
      saleChanged: (view) => emit({ type: 'sale-changed', payload: view }),
      inflowRecorded: (row) => emit({ type: 'inflow', payload: inflowView(row) }),
      alertRaised: (row) => emit({ type: 'alert', payload: alertView(row) }),
    },
  });

  function localCallbackUrl(): string {
    const route = options.callbackRoute();
    return route.mode === 'polling-only'
      ? `http://127.0.0.1/${environment}/polling-only`
      : route.callbackUrl;
  }

  const sync = createTransactionSync({
    db,
    client,
    scheduler,
    logger,
    onRow: (tx, listed) => engine.recordListedTransaction(tx, listed),
    events: {
      progress: (progress) => emit({ type: 'sync-progress', payload: progress }),
      finished: (run) => emit({ type: 'sync-finished', payload: run }),
    },
  });

  const handlers: HandlersOf<typeof runtimeChannels> = {
    ...saleHandlers({
      db,
      engine,
      scheduler,
      shop: () => {
        const current = settings.get();
        return {
          name: current.shop.name,
          timeZone: current.timeZone,
          cutoffHour: current.dayCutoffHour,
        };
      },
      ensureConfigured: () => void client(),
    }),
    syncTransactions: ({ mode }) => {
      client();
      const running = sync.run({ mode, trigger: 'user' });
      // Answer at once with the run as it starts; progress and the end come as events.
      return sync.current() ?? running;
    },
    cancelSync: () => ({ cancelled: sync.cancel() }),
    getBalance: () => getBalanceView(client(), payoutAccountId(), scheduler.now()),
    checkPayout: async ({ amount }) => {
      const requested = parseNairaInput(amount, 'amount');
      const balance = await getBalanceView(client(), payoutAccountId(), scheduler.now());
      return checkPayout(balance, requested);
    },
  };

  const maintenance = startMaintenanceSchedule({
    db,
    space: storeSpace,
    scheduler,
    logger,
    callbackBodyDays: () => settings.get().retention.callbackBodyDays,
  });

  let backupTimer: (() => void) | null = null;
  let stopFollowingSchedule: (() => void) | null = null;
  let backupRunning: Promise<unknown> | null = null;
  let closed = false;
  /** Once an hour: a backup when today's does not exist yet (the first one a minute after start). */
  function scheduleBackup(delayMs: number): void {
    backupTimer = scheduler.setTimer(delayMs, () => {
      if (closed) return;
      const current = settings.get();
      const day = businessDay(scheduler.now(), { timeZone: current.timeZone, cutoffHour: 0 });
      backupRunning = dailyBackup(db, {
        dir: join(options.dataDir, 'backups', environment),
        keep: current.backups.keep,
        day,
      })
        .then((path) => path && logger.info({ path }, 'daily backup written'))
        .catch((error: unknown) => logger.error({ err: error }, 'daily backup failed'))
        .finally(() => {
          backupRunning = null;
          if (!closed) scheduleBackup(60 * 60_000);
        });
    });
  }

  return {
    environment,
    db,
    storeSpace,
    get sandbox() {
      const link = sandbox();
      return link ? { kind: link.kind, controlUrl: link.controlUrl } : null;
    },
    engine,
    sync,
    handlers,
    sandboxClient: () => {
      const link = sandbox();
      return link ? { client: client(), payoutAccountId: link.connection().payoutAccountId } : null;
    },
    openAlertCount: () => listOpenAlerts(db).length,
    lastSync: () => sync.current() ?? sync.lastRun(),
    start() {
      // Resuming checks every unfinished sale with the provider: it runs in the background so
      // that the till is usable at once (each sale's checks are serialised by the engine).
      void engine.resume().catch((error: unknown) => logger.error({ err: error }, 'resume failed'));
      const current = settings.get();
      const configured = (() => {
        try {
          client();
          return true;
        } catch (error) {
          // A shared sandbox that is not up yet is set up all the same: syncs retry until it is.
          return error instanceof StandaloneSandboxError;
        }
      })();
      if (configured) {
        void sync
          .resumeInterrupted()
          .catch((error: unknown) => logger.warn({ err: error }, 'sync resume failed'));
        if (current.sync.intervalMinutes > 0) sync.startSchedule(current.sync.intervalMinutes);
        else if (current.sync.onStartup) void sync.run({ mode: 'incremental', trigger: 'startup' });
        // A new interval saved in Settings applies at once.
        stopFollowingSchedule = settings.subscribe((next, previous) => {
          if (closed || next.sync.intervalMinutes === previous.sync.intervalMinutes) return;
          sync.stopSchedule();
          if (next.sync.intervalMinutes > 0) sync.startSchedule(next.sync.intervalMinutes);
        });
      }
      scheduleBackup(60_000);
    },
    async idle() {
      await engine.idle();
    },
    async close() {
      if (closed) return;
      closed = true;
      backupTimer?.();
      diskFullWatch.close();
      await maintenance.close();
      stopFollowingSchedule?.();
      // A backup in progress finishes first: closing under it would fail it half-way.
      await backupRunning;
      sync.stopSchedule();
      sync.cancel();
      engine.close();
      // Let a cancelled sync run write its last state before the database closes.
      for (let waited = 0; sync.current() !== null && waited < 5_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await engine.idle();
      await sandboxChoice?.close();
      db.close();
    },
  };
}
