import {
  payoutChannels,
  saleChannels,
  syncChannels,
  type HandlersOf,
} from '#shared/bridge/contract';
import type { Scheduler } from '#main/clock/scheduler';
import { saleHandlers } from '#main/engine/sale-handlers';
import type { SalesEngine } from '#main/engine/sales-engine';
import { payoutHandlers } from '#main/payouts/payout-handlers';
import type { ProviderClient } from '#main/provider/client';
import type { SettingsStore } from '#main/settings/settings-store';
import type { Db } from '#main/store/database';
import { syncHandlers } from '#main/sync/sync-handlers';
import type { TransactionSync } from '#main/sync/sync';
import type { ProviderAccess } from './provider-access';

/**
 * The channels whose work needs one provider environment's client, engine or sync (not only its
 * database): the runtime answers them, and a switch of environment rebuilds it.
 */
export const runtimeChannels = { ...saleChannels, ...syncChannels, ...payoutChannels } as const;
export type RuntimeChannel = keyof typeof runtimeChannels;
export const RUNTIME_CHANNELS = Object.keys(runtimeChannels) as readonly RuntimeChannel[];

/** The runtime's channels: the sale, sync and payout groups, each from its handler file. */
export function runtimeTable(parts: {
  readonly db: Db;
  readonly engine: SalesEngine;
  readonly sync: TransactionSync;
  readonly provider: ProviderAccess;
  /** The provider client with its calls observed for the reach state. */
  readonly client: () => ProviderClient;
  readonly settings: SettingsStore;
  readonly scheduler: Scheduler;
}): HandlersOf<typeof runtimeChannels> {
  const { settings, scheduler, provider } = parts;
  const ensureConfigured = () => void provider.client();
  return {
    ...saleHandlers({
      db: parts.db,
      engine: parts.engine,
      scheduler,
      shop: () => {
        const current = settings.get();
        return {
          name: current.shop.name,
          timeZone: current.timeZone,
          cutoffHour: current.dayCutoffHour,
        };
      },
      ensureConfigured,
    }),
    ...syncHandlers({ sync: parts.sync, ensureConfigured }),
    ...payoutHandlers({
      client: parts.client,
      payoutAccountId: provider.payoutAccountId,
      now: () => scheduler.now(),
    }),
  };
}
