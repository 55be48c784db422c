import { referencePrefix } from '#shared/till-id';
import type { CoreHandlers } from '#shared/bridge/contract';
import type { Roles } from '#main/auth/roles';
import type { CoreHub } from '#main/hub/hub';
import type { Logger } from '#main/logging/logger';
import type { Scheduler } from '#main/clock/scheduler';
import type { SecretStore } from '#main/secrets/secret-store';
import type { SettingsStore } from '#main/settings/settings-store';
import { openSaleCount } from '#main/engine/till-sales';
import { outageAccountLine } from './go-live-outage';
import { appHandlers } from './app-handlers';
import type { Callbacks } from './callbacks';
import type { CoreConfig } from './core-types';
import { exceptionHandlers } from '#main/reports/exception-handlers';
import { hubHandlers } from '#main/hub/hub-handlers';
import { printingHandlers } from '#main/printing/printing-handlers';
import { reportHandlers } from './report-handlers';
import { runtimeHandlers } from './runtime-handlers';
import type { RuntimeHolder } from './runtime-holder';
import { sessionHandlers } from '#main/auth/session-handlers';
import { settingsHandlers } from './settings-handlers';

export interface HandlerTableDeps {
  readonly config: CoreConfig;
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly roles: Roles;
  readonly hub: CoreHub;
  readonly logger: Logger;
  readonly scheduler: Scheduler;
  readonly callbacks: Callbacks;
  readonly runtimes: RuntimeHolder;
}

/**
 * The core's handler table: one spread per contract group, each from its `<group>-handlers.ts`
 * (the sale, sync and payout groups through the runtime in use). The per-shell groups are not
 * here: each shell hands in its part (`Core.handlersFor`).
 */
export function coreHandlerTable(deps: HandlerTableDeps): CoreHandlers {
  const { config, settings, hub, callbacks, runtimes, scheduler } = deps;
  const now = () => scheduler.now();
  const db = () => runtimes.current().db;
  return {
    ...appHandlers({
      config,
      settings,
      callbackRoute: callbacks.route,
      tunnel: { status: callbacks.tunnelStatus },
      health: callbacks.health,
      runtime: () => runtimes.current(),
    }),
    ...hubHandlers({ hub }),
    ...sessionHandlers({ roles: deps.roles, settings }),
    ...exceptionHandlers({
      db,
      now,
      lateResolutionRecorded: (saleId) => runtimes.current().engine.lateResolutionRecorded(saleId),
      alertsClosed: (rows) => runtimes.current().engine.alertsClosed(rows),
    }),
    ...printingHandlers({
      settings,
      logger: deps.logger,
      ...(config.receiptPrinter ? { printer: config.receiptPrinter } : {}),
    }),
    ...reportHandlers({ db, settings: () => settings.get(), now }),
    ...runtimeHandlers(() => runtimes.current()),
    ...settingsHandlers({
      settings,
      secrets: deps.secrets,
      callbacks,
      sandboxClient: () => runtimes.get()?.sandboxClient() ?? null,
      counterWithPrefixOf: (tillId) =>
        hub
          .view()
          .counters.find(
            (counter) =>
              counter.revokedAt === null &&
              referencePrefix(counter.tillId) === referencePrefix(tillId),
          )?.name ?? null,
      moveLan: (address) => hub.moveLan(address),
      scheduler,
      logger: deps.logger,
      openSales: () => {
        const runtime = runtimes.get();
        return runtime ? openSaleCount(runtime.db) : 0;
      },
      outageAccount: async (environment) => {
        const runtime = runtimes.get();
        if (runtime?.environment !== environment) return null;
        return outageAccountLine(runtime.engine, deps.logger);
      },
    }),
  };
}
