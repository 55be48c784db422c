import {
  accessOf,
  isChannelName,
  type BridgeEvent,
  type Caller,
  type Handlers,
} from '#shared/bridge/contract';
import type { StatusView } from '#shared/views';
import { referencePrefix } from '#shared/till-id';
import { eventVisibleTo } from '#main/auth/event-visibility';
import { pairedCounterOf } from '#main/bridge/caller';
import { createRoles, type Roles } from '#main/auth/roles';
import { withOwnership } from '#main/bridge/ownership';
import { ownershipLookup } from '#main/bridge/ownership-lookup';
import { ensureDataDir } from '#main/config/data-dir';
import { systemScheduler } from '#main/engine/scheduler';
import { createAppLogger } from '#main/logging/logger';
import { createFileSecretBox } from '#main/secrets/file-secret-box';
import { createSecretStore, type SecretStore } from '#main/secrets/secret-store';
import { openNodeSettings } from '#main/settings/node-settings';
import { createSettingsStore, type SettingsStore } from '#main/settings/settings-store';
import { raiseAlert } from '#main/store/alerts-repo';
import { createGroupCommitInbox } from '#main/store/callback-inbox';
import { getSale, listOpenSales } from '#main/store/sales-repo';
import { limitStoreGrowth, liftStoreGrowthLimit } from '#main/store/store-space';
import { createNgrokDriver, createTunnelManager, type TunnelManager } from '#main/tunnel';
import { startWebhookListener } from '#main/webhook';
import type { Core, CoreAuth, CoreConfig } from './core-types';
import { authHandlers } from './auth-handlers';
import { openCallbackTokens, type CallbackTokens } from './callback-tokens';
import { createCallbackProof, type CallbackProof } from './callback-proof';
import { createEventBus } from './event-bus';
import { startMovableListener, type MovableListener } from './movable-listener';
import { statusForCounter } from '#main/hub/counter-status';
import { createHub, type CoreHub } from '#main/hub/hub';
import { hubHandlers } from './hub-handlers';
import { connectionHandlers } from './connection-handlers';
import { exceptionHandlers } from './exception-handlers';
import { printingHandlers } from './printing-handlers';
import { reportHandlers } from './report-handlers';
import { openRuntime, type Runtime } from './runtime';
import { runtimeHandlers } from './runtime-handlers';
import { settingsHandlers } from './settings-handlers';
import { AppError } from '#shared/errors';

export type { Core, CoreAuth, CoreConfig } from './core-types';

/**
 * The composition root: builds the core from a config and returns the handler table, the event
 * stream and a close function. The Electron shell and the browser shell both call it and hold
 * no logic of their own.
 *
 * The parts that outlive an environment switch (settings, secrets, logger, webhook listener,
 * tunnel) live here; the environment's own database, provider client, sales engine and sync
 * live in a Runtime that is rebuilt when the shop switches between sandbox, staging and
 * production.
 */
export async function createCore(config: CoreConfig): Promise<Core> {
  ensureDataDir(config.dataDir);
  const scheduler = config.scheduler ?? systemScheduler;
  const log = createAppLogger({
    dataDir: config.dataDir,
    ...(config.logLevel ? { level: config.logLevel } : {}),
    ...(config.logMirror ? { mirror: config.logMirror } : {}),
  });
  const logger = log.logger;
  const events = createEventBus((error) => logger.error({ err: error }, 'event listener failed'));
  const emit = (event: BridgeEvent) => events.emit(event);

  const openedSettings = config.settings ?? openNodeSettings(config.dataDir, config.version);
  const settings: SettingsStore = createSettingsStore(openedSettings.backend, {
    recovered: openedSettings.recovery,
  });
  const box = config.secretBox ?? createFileSecretBox(config.dataDir);
  const secrets: SecretStore = createSecretStore({
    dataDir: config.dataDir,
    box,
    redactor: log.redactor,
  });
  const roles: Roles = createRoles({
    dataDir: config.dataDir,
    now: () => scheduler.now(),
    cashiers: () => settings.get().shop.cashiers,
    cashierPinsRequired: () => settings.get().roles.cashierPins,
  });
  // Counters live in the active environment's database, next to the sales they make.
  const hub: CoreHub = createHub({
    db: () => currentRuntime().db,
    now: () => scheduler.now(),
    hubTillId: () => settings.get().shop.tillId,
    logger,
    redactor: log.redactor,
  });
  const tokens: CallbackTokens = openCallbackTokens({
    dataDir: config.dataDir,
    box,
    redactor: log.redactor,
    now: () => scheduler.now(),
  });

  let runtime: Runtime | null = null;
  let closed = false;

  // Movable: a listener port saved in Settings applies at once (settings-handlers moves it).
  const listener: MovableListener = await startMovableListener(
    (port) =>
      startWebhookListener({
        port,
        tokens: () => tokens.list(),
        logger,
        now: () => scheduler.now(),
        inbox: createGroupCommitInbox(
          () => {
            if (!runtime) throw new Error('The till is switching environments');
            return runtime.db;
          },
          (error) => runtime?.storeSpace.noteFailure(error),
        ),
        // Before the engine: the callback proves the route whatever the engine then finds.
        onCallback(stored) {
          health.callbackReceived({
            at: scheduler.now(),
            ...(stored.hint?.reference ? { reference: stored.hint.reference } : {}),
            ...(stored.hint?.sessionId ? { sessionId: stored.hint.sessionId } : {}),
          });
          void runtime?.engine.handleCallback(stored.id, stored.hint).catch((error: unknown) => {
            logger.error({ err: error, callbackId: stored.id }, 'callback confirmation failed');
          });
        },
        selfTest: (body) => proof.receive(body),
      }),
    settings.get().callbacks.listenerPort,
  );

  const tunnel: TunnelManager = createTunnelManager({
    driver: config.tunnelDriver ?? createNgrokDriver(),
    logger,
  });

  const proof: CallbackProof = createCallbackProof({
    scheduler,
    logger,
    settings,
    secrets,
    listener,
    tunnel,
    emit,
  });
  const { health, selfTester, selfTest, selfTestNewRoute, basicAuth } = proof;
  const callbackRoute = proof.route;

  tunnel.subscribe((event) => {
    if (event.type === 'status') {
      emit({ type: 'tunnel', payload: event.status });
      health.refresh();
      if (event.status.state !== 'online') runtime?.engine.callbacksWentDown();
      // Online again (or for the first time): prove the new session end to end.
      else selfTest('tunnel-online');
    } else {
      // Sales created with the old URL will never get their callbacks: poll them.
      runtime?.engine.callbacksWentDown();
      if (runtime) {
        const alert = raiseAlert(
          runtime.db,
          {
            level: 'warning',
            kind: 'tunnel_url_changed',
            message: `The public callback address changed (${event.previousUrl} → ${event.url}). Open sales are now checked by polling. A reserved ngrok domain keeps the address fixed.`,
          },
          scheduler.now(),
        );
        if (alert) emit({ type: 'alert', payload: { ...alert } });
      }
    }
  });

  /** The options the tunnel last started with (secrets included, held in memory only). */
  let tunnelKey: string | null = null;
  async function syncTunnel(): Promise<void> {
    const current = settings.get();
    const authtoken = secrets.get('global', 'ngrokAuthtoken');
    const wanted =
      current.environment !== 'sandbox' && current.callbacks.mode === 'ngrok' && authtoken !== null;
    if (!wanted) {
      tunnelKey = null;
      await tunnel.stop();
      return;
    }
    const options = {
      localPort: listener.port,
      authtoken,
      ...(current.callbacks.ngrokDomain ? { domain: current.callbacks.ngrokDomain } : {}),
      ...(current.callbacks.ngrokAllowCidrs.length > 0
        ? { allowCidrs: current.callbacks.ngrokAllowCidrs }
        : {}),
      ...basicAuth(current.callbacks.ngrokBasicAuthUser),
    };
    // A save that changed nothing the tunnel uses (the shop's name, say) leaves it connected:
    // a restart could change its public address under the open sales.
    const key = JSON.stringify(options);
    if (key === tunnelKey && tunnel.status().state !== 'off') return;
    tunnelKey = key;
    await tunnel.start(options);
  }

  async function switchRuntime(): Promise<void> {
    const previous = runtime;
    runtime = null;
    // Last contacts not written yet belong to the database about to close.
    if (previous) hub.flush();
    await previous?.close();
    runtime = await openRuntime({
      environment: settings.get().environment,
      dataDir: config.dataDir,
      settings,
      secrets,
      scheduler,
      logger,
      emit,
      callbackRoute,
      callbackHealth: health,
      ...(config.providerTimeoutMs === undefined
        ? {}
        : { providerTimeoutMs: config.providerTimeoutMs }),
      ...(config.providerReadRetry ? { providerReadRetry: config.providerReadRetry } : {}),
      ...(config.sqliteNativeBinding ? { sqliteNativeBinding: config.sqliteNativeBinding } : {}),
      ...(config.sandboxPort === undefined ? {} : { sandboxPort: config.sandboxPort }),
    });
    for (const problem of startupProblems()) {
      const alert = raiseAlert(runtime.db, problem, scheduler.now());
      if (alert) emit({ type: 'alert', payload: { ...alert } });
    }
    runtime.start();
  }

  function startupProblems() {
    const problems: { level: 'warning'; kind: string; message: string; dedupeKey: string }[] = [];
    const settingsRecovery = settings.recovery;
    if (settingsRecovery) {
      problems.push({
        level: 'warning',
        kind: 'settings_recovered',
        message: `The settings file could not be read and was reset to defaults; the old file is kept as ${settingsRecovery.movedTo}.`,
        dedupeKey: `settings_recovered:${settingsRecovery.movedTo}`,
      });
    }
    if (roles.recovery) {
      problems.push({
        level: 'warning',
        kind: 'pins_recovered',
        message: roles.recovery.message,
        dedupeKey: `pins_recovered:${roles.recovery.movedTo}`,
      });
    }
    for (const secret of secrets.unreadable()) {
      problems.push({
        level: 'warning',
        kind: 'secret_unreadable',
        message: `The saved ${secret.name} for ${secret.scope} cannot be read: ${secret.problem}`,
        dedupeKey: `secret_unreadable:${secret.scope}:${secret.name}`,
      });
    }
    return problems;
  }

  let lastEnvironment = settings.get().environment;
  let lastTimeZone = settings.get().timeZone;
  settings.subscribe((next) => {
    if (closed) return;
    // A new time zone reaches the references and the provider client of a rebuilt runtime,
    // as a switch of environment does: it applies when saved, without a restart.
    if (next.environment !== lastEnvironment || next.timeZone !== lastTimeZone) {
      lastEnvironment = next.environment;
      lastTimeZone = next.timeZone;
      void switchRuntime()
        .then(syncTunnel)
        .then(() => {
          health.refresh();
          selfTestNewRoute();
        })
        .catch((error: unknown) => logger.error({ err: error }, 'switching environment failed'));
    } else {
      // The tunnel first: a restarting tunnel says "connecting" at once and tests itself once
      // online, rather than being tested on its way down.
      void syncTunnel().catch((error: unknown) =>
        logger.error({ err: error }, 'tunnel update failed'),
      );
      health.refresh();
      selfTestNewRoute();
    }
  });

  await switchRuntime();
  void syncTunnel().catch((error: unknown) => logger.error({ err: error }, 'tunnel start failed'));
  proof.start();

  function currentRuntime(): Runtime {
    if (!runtime) {
      throw new AppError('BUSY', 'The till is switching environments. Try again in a moment.');
    }
    return runtime;
  }

  function status(caller: Caller): StatusView {
    const current = settings.get();
    const route = callbackRoute();
    const rt = currentRuntime();
    const view: StatusView = {
      environment: current.environment,
      shopName: current.shop.name,
      tillId: current.shop.tillId,
      timeZone: current.timeZone,
      callback: {
        mode: route.mode,
        live: route.mode !== 'polling-only',
        tunnel: tunnel.status(),
      },
      callbackHealth: health.view(),
      openAlerts: rt.openAlertCount(),
      lastSync: rt.lastSync(),
      storeSpace: rt.storeSpace.view(),
    };
    const counter = pairedCounterOf(caller);
    return counter ? statusForCounter(view, counter, rt.db) : view;
  }

  const handlers = {
    getAppInfo: () => ({
      name: 'Transfer Till',
      version: config.version,
      shell: config.shell,
      environment: settings.get().environment,
    }),
    getStatus: (_input, caller) => status(caller),
    ...hubHandlers({ hub }),
    ...authHandlers({ roles, settings }),
    ...exceptionHandlers({ db: () => currentRuntime().db, now: () => scheduler.now() }),
    ...printingHandlers({
      settings,
      logger,
      ...(config.receiptPrinter ? { printer: config.receiptPrinter } : {}),
    }),
    ...reportHandlers({
      db: () => currentRuntime().db,
      settings: () => settings.get(),
      now: () => scheduler.now(),
    }),
    ...connectionHandlers({ logger, now: () => scheduler.now() }),
    ...runtimeHandlers(currentRuntime),
    ...settingsHandlers({
      settings,
      secrets,
      callbackRoute,
      rotateCallbackToken: () => {
        tokens.rotate();
      },
      sandboxClient: () => runtime?.sandboxClient() ?? null,
      counterWithPrefixOf: (tillId) =>
        hub
          .view()
          .counters.find(
            (counter) =>
              counter.revokedAt === null &&
              referencePrefix(counter.tillId) === referencePrefix(tillId),
          )?.name ?? null,
      scheduler,
      testCallbacks: async () => {
        await selfTester.run('user');
        return health.view();
      },
      checkCallbacks: (environment) => proof.check(environment),
      openSales: () => (runtime ? listOpenSales(runtime.db).length : 0),
      moveListener: async (port) => {
        const moved = await listener.moveTo(port);
        // Sales given the old address would wait for callbacks that cannot come: poll them.
        if (moved) runtime?.engine.callbacksWentDown();
        return moved;
      },
    }),
  } satisfies Handlers;

  logger.info({ shell: config.shell, environment: settings.get().environment }, 'core started');

  const auth: CoreAuth = {
    callerFor: (request, channel) =>
      roles.callerFor(request, isChannelName(channel) ? accessOf(channel) : 'open'),
    viewerFor: (request) => roles.viewerFor(request),
    eventVisibleTo: (event, caller) => {
      const viewer = listenerNow(caller);
      return (
        viewer !== null &&
        eventVisibleTo(event, viewer, (saleId) => {
          const sale = runtime ? getSale(runtime.db, saleId) : undefined;
          return sale ? { cashier: sale.cashier, tillId: sale.tillId } : null;
        })
      );
    },
    forget: (sessionId) => roles.forget(sessionId),
  };

  /**
   * A counter's event stream hears as the counter is now (a new till id applies at once), and
   * hears nothing once it is revoked, even before the shell has ended the stream.
   */
  function listenerNow(caller: Caller): Caller | null {
    const counter = pairedCounterOf(caller);
    if (!counter) return caller;
    const current = runtime ? hub.current(counter.id) : null;
    return current ? { ...caller, counter: current } : null;
  }

  return {
    handlers: withOwnership(
      handlers,
      ownershipLookup(() => currentRuntime().db),
    ),
    events,
    auth,
    log,
    hub,
    settings,
    secretBox: box,
    sandboxControlUrl: () => runtime?.sandbox?.controlUrl ?? null,
    limitStoreGrowth(limited) {
      const rt = currentRuntime();
      if (limited) limitStoreGrowth(rt.db);
      else liftStoreGrowthLimit(rt.db);
      rt.storeSpace.probe();
      return rt.storeSpace.view();
    },
    now: () => scheduler.now(),
    idle: () => runtime?.idle() ?? Promise.resolve(),
    async close() {
      if (closed) return;
      closed = true;
      proof.close();
      await tunnel.close();
      await listener.close();
      if (runtime) hub.flush();
      await runtime?.close();
      runtime = null;
      logger.info('core closed');
      log.close();
    },
  };
}
