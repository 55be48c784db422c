import type { Logger } from '#main/logging/logger';
import type { StoredCallback } from './types';

/**
 * What follows the answers. Every callback stored and answered in one turn of the event loop (a
 * group commit answers its whole batch at once) goes to the engine on the next turn. A line per
 * callback, written between two answers, held every later answer of the batch back by a
 * formatted, redacted and synchronously written line; a line per batch still cost each batch a
 * synchronous append to the log file, which on a disk busy with the commits' fsyncs waits for
 * the file system's journal (the webhook bench's listener with a silent logger: p50 1.11x the
 * bare server with the store instead of 1.31x, issue 31). So the ids are logged at most once
 * per `logEveryMs`: a callback after a quiet second is logged at once, as before; under a burst
 * the ids of the second go in one line at its end. The callback itself is in callback_log
 * before its 200 whatever the log says; the line is for people reading the log.
 */
export interface AfterAnswer {
  /** A callback stored and answered: hand it on a turn later, and log its id. */
  add(stored: StoredCallback): void;
  /** The listener closes: the ids not logged yet are logged now. */
  close(): void;
}

export interface AfterAnswerOptions {
  readonly logger: Logger;
  /** Called after the provider has had its answer; must not throw (errors are logged). */
  readonly onCallback: (stored: StoredCallback) => void;
  readonly closed: () => boolean;
  /** At most one "callbacks stored" line per this many ms (default LOG_EVERY_MS). */
  readonly logEveryMs?: number;
  readonly now?: () => number;
}

export const LOG_EVERY_MS = 1_000;

export function createAfterAnswer(options: AfterAnswerOptions): AfterAnswer {
  const { logger } = options;
  const logEveryMs = options.logEveryMs ?? LOG_EVERY_MS;
  const now = options.now ?? Date.now;
  let batch: StoredCallback[] = [];
  let unlogged: number[] = [];
  let lastLineAt = Number.NEGATIVE_INFINITY;
  let lineTimer: NodeJS.Timeout | null = null;

  function writeLine(): void {
    if (lineTimer !== null) clearTimeout(lineTimer);
    lineTimer = null;
    if (unlogged.length === 0) return;
    const callbackIds = unlogged;
    unlogged = [];
    lastLineAt = now();
    logger.info(
      { callbackIds },
      callbackIds.length === 1
        ? 'webhook: callback stored'
        : `webhook: ${callbackIds.length} callbacks stored`,
    );
  }

  function logIds(stored: readonly StoredCallback[]): void {
    for (const callback of stored) unlogged.push(callback.id);
    const wait = lastLineAt + logEveryMs - now();
    if (wait <= 0) writeLine();
    else if (lineTimer === null) {
      lineTimer = setTimeout(writeLine, wait);
      // A pending line never keeps the process alive; close() writes it.
      lineTimer.unref();
    }
  }

  function drain(): void {
    const stored = batch;
    batch = [];
    logIds(stored);
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
    close() {
      writeLine();
    },
  };
}
