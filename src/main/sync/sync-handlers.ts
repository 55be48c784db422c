import type { HandlersOf, syncChannels } from '#shared/bridge/contract';
import type { TransactionSync } from './sync';

export interface SyncHandlerDeps {
  readonly sync: TransactionSync;
  /** Throws a clear NOT_CONFIGURED error when the environment has no provider keys yet. */
  readonly ensureConfigured: () => void;
}

/** The provider's listing read into this till: started by the owner, followed through events. */
export function syncHandlers(deps: SyncHandlerDeps): HandlersOf<typeof syncChannels> {
  const { sync } = deps;
  return {
    syncTransactions: ({ mode }) => {
      deps.ensureConfigured();
      const running = sync.run({ mode, trigger: 'user' });
      // Answer at once with the run as it starts; progress and the end come as events.
      return sync.current() ?? running;
    },
    cancelSync: () => ({ cancelled: sync.cancel() }),
  };
}
