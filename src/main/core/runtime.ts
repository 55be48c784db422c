import type { BridgeEvent, HandlersOf } from '#shared/bridge/contract';
import type { Environment } from '#shared/settings-schema';
import { referencePrefix } from '#shared/till-id';
import type { SyncRunView } from '#shared/views';
import type { Scheduler } from '#main/clock/scheduler';
import { bridgeEngineEvents } from '#main/engine/bridge-events';
import type { CallbackHealth } from '#main/engine/callback-health';
import { createSalesEngine, type SalesEngine } from '#main/engine/sales-engine';
import type { Logger } from '#main/logging/logger';
import type { ProviderClient } from '#main/provider/client';
import { createProviderReach, type ProviderReach } from '#main/provider/provider-reach';
import { observedClient } from '#main/provider/reach-observer';
import { startReachProbe, type ReachProbe } from '#main/provider/reach-probe';
import type { ReadRetryPolicy } from '#main/provider/read-retry';
import { createReferenceGenerator } from '#main/provider/references';
import type { SecretStore } from '#main/secrets/secret-store';
import type { SettingsStore } from '#main/settings/settings-store';
import type { Db } from '#main/store/database';
import type { StoreSpace } from '#main/store/store-space';
import { syncWhenBackOnline } from '#main/sync/back-online';
import { createTransactionSync, type TransactionSync } from '#main/sync/sync';
import type { CallbackRoute } from '#main/tunnel';
import { startBackupSchedule, type BackupSchedule } from './backup-schedule';
import { callbackTarget } from './callback-target';
import { providerAccess, type ProviderAccess } from './provider-access';
import { openRuntimeStore } from './runtime-store';
import { runtimeTable, type runtimeChannels } from './runtime-table';
import { openSandboxChoice } from './sandbox-link';
import { StandaloneSandboxError } from './standalone-sandbox';

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
  /** Whether the provider can be reached from this till: its calls observed, a probe when quiet. */
  readonly providerReach: ProviderReach;
  /**
   * True while the provider cannot be reached: a call met a network error or a timeout and none
   * has been answered since. A failed call is told before its caller hears of it, so a caller
   * that catches a failed create may ask this at once.
   */
  isProviderUnreachable(): boolean;
  readonly handlers: HandlersOf<typeof runtimeChannels>;
  /** The sandbox's client, for "Test connection" on the sandbox profile (throws when unreadable). */
  sandboxClient(): { readonly client: ProviderClient; readonly payoutAccountId: string } | null;
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

/**
 * Every call the till makes tells the reach what it met (the header's honest state); a change
 * is logged and pushed to every page.
 */
function watchProviderReach(
  providerClient: ProviderAccess['client'],
  { scheduler, logger, emit }: Pick<RuntimeOptions, 'scheduler' | 'logger' | 'emit'>,
) {
  const providerReach = createProviderReach(() => scheduler.now());
  const client = observedClient(providerClient, providerReach);
  providerReach.subscribe((view) => {
    if (view.state === 'unreachable') logger.warn({ since: view.since }, 'provider unreachable');
    else logger.info({ since: view.since }, 'provider reachable again');
    emit({ type: 'provider-reach', payload: view });
  });
  return { providerReach, client };
}

/** One provider environment: its own database, provider client, sales engine and sync. */
export async function openRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { environment, settings, scheduler, logger, emit } = options;
  const sandboxChoice = environment === 'sandbox' ? await openSandboxChoice(options) : null;
  const sandbox = () => sandboxChoice?.link() ?? null;
  const { db, storeSpace, diskFullWatch, maintenance } = openRuntimeStore(options);
  const provider = providerAccess({
    environment,
    settings,
    secrets: options.secrets,
    sandbox,
    isSandbox: sandboxChoice !== null,
    ...(options.providerTimeoutMs === undefined
      ? {}
      : { providerTimeoutMs: options.providerTimeoutMs }),
    ...(options.providerReadRetry ? { providerReadRetry: options.providerReadRetry } : {}),
  });
  const { providerReach, client } = watchProviderReach(provider.client, options);

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
    settings: provider.engineSettings,
    // One answer to "can the provider be reached?": the header's, from every call and the probe.
    providerUnreachable: () => providerReach.isUnreachable(),
    callbackTarget: () => callbackTarget(environment, options.callbackRoute()),
    callbackHealth: options.callbackHealth,
    storeSpace,
    events: bridgeEngineEvents(db, emit),
  });

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

  syncWhenBackOnline(providerReach, db, sync);
  const handlers = runtimeTable({ db, engine, sync, provider, client, settings, scheduler });

  let backups: BackupSchedule | null = null;
  let reachProbe: ReachProbe | null = null;
  let stopFollowingSchedule: (() => void) | null = null;
  let closed = false;

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
    providerReach,
    isProviderUnreachable: () => providerReach.isUnreachable(),
    handlers,
    sandboxClient: () => {
      const link = sandbox();
      return link ? { client: client(), payoutAccountId: link.connection().payoutAccountId } : null;
    },
    lastSync: () => sync.current() ?? sync.lastRun(),
    start() {
      // Resuming checks every unfinished sale with the provider: it runs in the background so
      // that the till is usable at once (each sale's checks are serialised by the engine).
      void engine.resume().catch((error: unknown) => logger.error({ err: error }, 'resume failed'));
      if (configured(client)) {
        stopFollowingSchedule = startSyncs(sync, settings, logger, () => closed);
        // The standing account for outages is made while online, once; a failure waits for
        // the next start (or "Check everything"). One cut short by quitting is not logged: the
        // log is closed by then.
        void engine.ensureOutageAccount().catch((err: unknown) => {
          if (!closed) logger.warn({ err }, 'outage account not made; next start retries');
        });
      }
      reachProbe = startReachProbe({ reach: providerReach, scheduler, client: provider.client });
      backups = startBackupSchedule({
        db,
        dataDir: options.dataDir,
        environment,
        settings,
        scheduler,
        logger,
      });
    },
    async idle() {
      await engine.idle();
      await reachProbe?.idle();
    },
    async close() {
      if (closed) return;
      closed = true;
      const backupsDone = backups?.close();
      diskFullWatch.close();
      reachProbe?.close();
      await maintenance.close();
      stopFollowingSchedule?.();
      // A backup in progress finishes first: closing under it would fail it half-way.
      await backupsDone;
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

/** Whether the environment can reach its provider (a shared sandbox not up yet counts: syncs retry). */
function configured(client: () => ProviderClient): boolean {
  try {
    client();
    return true;
  } catch (error) {
    return error instanceof StandaloneSandboxError;
  }
}

/**
 * Resumes an interrupted sync, starts the schedule (or one sync at startup) and follows a new
 * interval saved in Settings at once; answers the function that stops following.
 */
function startSyncs(
  sync: TransactionSync,
  settings: SettingsStore,
  logger: Logger,
  closed: () => boolean,
): () => void {
  const current = settings.get();
  void sync
    .resumeInterrupted()
    .catch((error: unknown) => logger.warn({ err: error }, 'sync resume failed'));
  if (current.sync.intervalMinutes > 0) sync.startSchedule(current.sync.intervalMinutes);
  else if (current.sync.onStartup) void sync.run({ mode: 'incremental', trigger: 'startup' });
  return settings.subscribe((next, previous) => {
    if (closed() || next.sync.intervalMinutes === previous.sync.intervalMinutes) return;
    sync.stopSchedule();
    if (next.sync.intervalMinutes > 0) sync.startSchedule(next.sync.intervalMinutes);
  });
}
