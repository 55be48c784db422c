import type { appChannels, Caller, HandlersOf } from '#shared/bridge/contract';
import type { StatusView } from '#shared/views';
import { visibleOpenAlerts } from '#main/auth/alert-visibility';
import { pairedCounterOf } from '#main/auth/caller';
import type { CallbackHealthMonitor } from '#main/engine/callback-health';
import { statusForCounter } from '#main/hub/counter-status';
import type { SettingsStore } from '#main/settings/settings-store';
import { shopNameWanted } from '#main/settings/shop-name';
import { hasAnySale } from '#main/engine/till-sales';
import type { CallbackRoute, TunnelManager } from '#main/tunnel';
import type { CoreConfig } from './core-types';
import type { Runtime } from './runtime';

export interface AppHandlerDeps {
  readonly config: Pick<CoreConfig, 'version' | 'shell'>;
  readonly settings: SettingsStore;
  readonly callbackRoute: () => CallbackRoute;
  readonly tunnel: Pick<TunnelManager, 'status'>;
  readonly health: Pick<CallbackHealthMonitor, 'view'>;
  /** The runtime of the environment in use (throws BUSY while it switches). */
  readonly runtime: () => Runtime;
}

/** The app itself: who it is, and how it stands (a paired counter sees its own till's view). */
export function appHandlers(deps: AppHandlerDeps): HandlersOf<typeof appChannels> {
  const { settings } = deps;

  function status(caller: Caller): StatusView {
    const current = settings.get();
    const route = deps.callbackRoute();
    const rt = deps.runtime();
    const view: StatusView = {
      environment: current.environment,
      shopName: current.shop.name,
      tillId: current.shop.tillId,
      timeZone: current.timeZone,
      callback: {
        mode: route.mode,
        live: route.mode !== 'polling-only',
        tunnel: deps.tunnel.status(),
      },
      callbackHealth: deps.health.view(),
      // The same read as Activity's list, by the same rule: the count is what the caller can open.
      openAlerts: visibleOpenAlerts(rt.db, caller).length,
      lastSync: rt.lastSync(),
      storeSpace: rt.storeSpace.view(),
      providerReach: rt.providerReach.view(),
      askShopName: shopNameWanted(current, hasAnySale(rt.db)),
    };
    const counter = pairedCounterOf(caller);
    return counter ? statusForCounter(view, counter) : view;
  }

  return {
    getAppInfo: () => ({
      name: 'Transfer Till',
      version: deps.config.version,
      shell: deps.config.shell,
      environment: settings.get().environment,
    }),
    getStatus: (_input, caller) => status(caller),
  };
}
