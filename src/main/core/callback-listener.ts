import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import { environmentInbox } from '#main/engine/callback-inbox';
import { startWebhookListener, type StoredCallback } from '#main/webhook';
import type { CallbackTokens } from './callback-tokens';
import { startMovableListener, type MovableListener } from './movable-listener';
import type { Runtime } from './runtime';

export interface CallbackListenerDeps {
  readonly port: number;
  readonly tokens: CallbackTokens;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** The runtime of the environment in use, or null while it switches. */
  readonly runtime: () => Runtime | null;
  /** Every stored callback, before the engine checks it. */
  readonly onStored: (stored: StoredCallback) => void;
  /** A self-test's callback coming home: true when a tester knew it. */
  readonly selfTest: (body: string) => boolean;
}

/**
 * The webhook listener with its inbox (each callback stored in the environment's database before
 * the 200), movable to a port saved in Settings; a stored callback goes to the engine to check.
 */
export function startCallbackListener(deps: CallbackListenerDeps): Promise<MovableListener> {
  const { scheduler, logger, runtime } = deps;
  return startMovableListener(
    (port) =>
      startWebhookListener({
        port,
        tokens: () => deps.tokens.list(),
        logger,
        now: () => scheduler.now(),
        inbox: environmentInbox(runtime),
        onCallback(stored) {
          deps.onStored(stored);
          void runtime()
            ?.engine.handleCallback(stored.id, stored.hint)
            .catch((error: unknown) => {
              logger.error({ err: error, callbackId: stored.id }, 'callback confirmation failed');
            });
        },
        selfTest: (body) => deps.selfTest(body),
      }),
    deps.port,
  );
}
