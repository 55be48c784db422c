import type { BridgeEvent, CoreHandlers } from '#shared/bridge/contract';
import type { Environment } from '#shared/settings-schema';
import { createRoles } from '#main/auth/roles';
import { withOwnership, type OwnedHandlers } from '#main/auth/ownership';
import { ownershipLookup } from '#main/auth/ownership-lookup';
import { ensureDataDir } from '#main/config/data-dir';
import { systemScheduler } from '#main/clock/scheduler';
import { createHub } from '#main/hub/hub';
import { createAppLogger } from '#main/logging/logger';
import { createFileSecretBox } from '#main/secrets/file-secret-box';
import { createSecretStore } from '#main/secrets/secret-store';
import { openNodeSettings } from '#main/settings/node-settings';
import { createSettingsStore } from '#main/settings/settings-store';
import { limitStoreGrowth, liftStoreGrowthLimit } from '#main/store/store-space';
import { startCallbacks } from './callbacks';
import { coreAuth } from './core-auth';
import type { Core, CoreConfig } from './core-types';
import { createEventBus } from './event-bus';
import { coreHandlerTable } from './handler-table';
import { watchKeyChanges } from './key-alerts';
import { openRuntime } from './runtime';
import { followEnvironment, holdRuntime } from './runtime-holder';
import { NO_SHELL_PARTS, shellHandlers, type ShellParts } from './shell-handlers';
import { startupProblems } from './startup-problems';

export type { Core, CoreAuth, CoreConfig } from './core-types';

/**
 * The composition root: builds the core from a config and returns the handler table, the event
 * stream and a close function. The Electron shell and the browser shell both call it and hold
 * no logic of their own.
 *
 * The parts that outlive an environment switch (settings, secrets, logger, roles, the hub and the
 * callbacks: core/callbacks.ts) live here; the environment's own database, provider client,
 * sales engine and sync live in a Runtime (core/runtime.ts) that is rebuilt when the shop
 * switches between sandbox, staging and production (core/runtime-holder.ts).
 */
export async function createCore(config: CoreConfig): Promise<Core> {
  ensureDataDir(config.dataDir);
  const scheduler = config.scheduler ?? systemScheduler;
  const now = () => scheduler.now();
  const log = createAppLogger({
    dataDir: config.dataDir,
    ...(config.logLevel ? { level: config.logLevel } : {}),
    ...(config.logMirror ? { mirror: config.logMirror } : {}),
  });
  const { logger, redactor } = log;
  const events = createEventBus((error) => logger.error({ err: error }, 'event listener failed'));
  const emit = (event: BridgeEvent) => events.emit(event);

  const opened = config.settings ?? openNodeSettings(config.dataDir, config.version);
  const settings = createSettingsStore(opened.backend, { recovered: opened.recovery });
  const box = config.secretBox ?? createFileSecretBox(config.dataDir);
  // Each provider key is handed out only for the origin its profile's address has now.
  const addresses = (environment: Environment) => settings.get().profiles[environment];
  const secrets = createSecretStore({ dataDir: config.dataDir, box, redactor, addresses });
  const roles = createRoles({
    dataDir: config.dataDir,
    now,
    cashiers: () => settings.get().shop.cashiers,
    cashierPinsRequired: () => settings.get().roles.cashierPins,
  });
  // Counters live in the active environment's database, next to the sales they make.
  const hub = createHub({
    db: () => runtimes.current().db,
    now,
    hubTillId: () => settings.get().shop.tillId,
    logger,
    redactor,
  });

  let closed = false;
  const runtimes = holdRuntime({
    open: () =>
      openRuntime({
        environment: settings.get().environment,
        dataDir: config.dataDir,
        settings,
        secrets,
        scheduler,
        logger,
        emit,
        callbackRoute: callbacks.route,
        callbackHealth: callbacks.health,
        ...(config.providerTimeoutMs === undefined
          ? {}
          : { providerTimeoutMs: config.providerTimeoutMs }),
        ...(config.providerReadRetry ? { providerReadRetry: config.providerReadRetry } : {}),
        ...(config.sqliteNativeBinding ? { sqliteNativeBinding: config.sqliteNativeBinding } : {}),
        ...(config.sandboxPort === undefined ? {} : { sandboxPort: config.sandboxPort }),
      }),
    beforeClose: () => hub.flush(),
    problems: () => startupProblems({ settings, roles, secrets }),
    scheduler,
    emit,
  });

  // Before the environment follower: a save that also switches still finds the runtime.
  const runtime = () => runtimes.get();
  const stopKeyAlerts = watchKeyChanges({ settings, secrets, logger, scheduler, emit, runtime });

  const callbacks = await startCallbacks({
    dataDir: config.dataDir,
    box,
    redactor,
    scheduler,
    logger,
    settings,
    secrets,
    emit,
    ...(config.tunnelDriver ? { tunnelDriver: config.tunnelDriver } : {}),
    runtime: () => runtimes.get(),
  });
  followEnvironment({ settings, runtimes, callbacks, logger, closed: () => closed });

  await runtimes.switch();
  callbacks.start();

  const table: CoreHandlers = coreHandlerTable({
    config,
    settings,
    secrets,
    roles,
    hub,
    logger,
    scheduler,
    callbacks,
    runtimes,
  });
  const shellTable = shellHandlers({ logger, now });
  const lookup = ownershipLookup(() => runtimes.current().db);
  const handlersFor = (shell: ShellParts): OwnedHandlers =>
    withOwnership({ ...table, ...shellTable(shell) }, lookup);

  logger.info({ shell: config.shell, environment: settings.get().environment }, 'core started');

  return {
    handlers: handlersFor(NO_SHELL_PARTS),
    handlersFor,
    events,
    auth: coreAuth({ roles, hub, runtime: () => runtimes.get() }),
    log,
    hub,
    settings,
    secretBox: box,
    sandboxControlUrl: () => runtimes.get()?.sandbox?.controlUrl ?? null,
    limitStoreGrowth(limited) {
      const rt = runtimes.current();
      if (limited) limitStoreGrowth(rt.db);
      else liftStoreGrowthLimit(rt.db);
      rt.storeSpace.probe();
      return rt.storeSpace.view();
    },
    isProviderUnreachable: () => runtimes.get()?.isProviderUnreachable() ?? false,
    now,
    idle: () => runtimes.get()?.idle() ?? Promise.resolve(),
    async close() {
      if (closed) return;
      closed = true;
      stopKeyAlerts();
      await callbacks.close();
      await runtimes.close();
      logger.info('core closed');
      log.close();
    },
  };
}
