import type { Logger } from '#main/logging/logger';
import type { StoredCallback } from './types';

/**
 * What follows the answers. Every callback stored and answered in one turn of the event loop (a
 * group commit answers its whole batch at once) is logged in one line on the next turn, with
 * the ids of their rows in callback_log, and then goes to the engine. A line per callback,
 * written between two answers, held every later answer of the batch back by a formatted,
 * redacted and synchronously written line.
 */
export interface AfterAnswer {
  /** A callback stored and answered: log it and hand it on, a turn later. */
  add(stored: StoredCallback): void;
}

export interface AfterAnswerOptions {
  readonly logger: Logger;
  /** Called after the provider has had its answer; must not throw (errors are logged). */
  readonly onCallback: (stored: StoredCallback) => void;
  readonly closed: () => boolean;
}

export function createAfterAnswer(options: AfterAnswerOptions): AfterAnswer {
  const { logger } = options;
  let batch: StoredCallback[] = [];

  function drain(): void {
    const stored = batch;
    batch = [];
    logger.info(
      { callbackIds: stored.map((callback) => callback.id) },
      stored.length === 1
        ? 'webhook: callback stored'
        : `webhook: ${stored.length} callbacks stored`,
    );
    for (const callback of stored) {
      if (options.closed()) return; // stored: the engine picks unconfirmed records up on its next start
      try {
        options.onCallback(callback);
      } catch (error) {
        logger.error({ err: error, callbackId: callback.id }, 'webhook: onCallback failed');
      }
    }
  }

  return {
    add(stored) {
      batch.push(stored);
      // A turn later: neither the line nor confirmation (a provider round trip) delays an answer.
      if (batch.length === 1) setImmediate(drain);
    },
  };
}
