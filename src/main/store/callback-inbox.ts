import { insertCallback, type CallbackLogInput } from './callback-log-repo';
import type { Db } from './database';

interface Waiting {
  readonly record: CallbackLogInput;
  resolve(stored: { readonly id: number }): void;
  reject(error: unknown): void;
}

/**
 * The webhook listener's inbox with group commit: every callback is committed (WAL,
 * synchronous=FULL) before its promise resolves, so before its 200; callbacks that arrive while
 * one commit is being made to disk share the next one. Under load this turns one fsync per
 * callback into one per batch, without ever answering before the data is durable.
 */
export function createGroupCommitInbox(
  db: () => Db,
  /** A batch could not be committed (a full disk: the store's space monitor is told). */
  onFailure?: (error: unknown) => void,
): {
  store(record: CallbackLogInput): Promise<{ readonly id: number }>;
} {
  let queue: Waiting[] = [];
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const batch = queue;
    queue = [];
    try {
      const target = db();
      const ids = target.transaction(() =>
        batch.map((waiting) => insertCallback(target, waiting.record)),
      )();
      batch.forEach((waiting, index) => waiting.resolve({ id: ids[index] as number }));
    } catch (error) {
      onFailure?.(error);
      for (const waiting of batch) waiting.reject(error);
    }
  }

  return {
    store(record) {
      return new Promise((resolve, reject) => {
        queue.push({ record, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}
