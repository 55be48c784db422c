import type { Db } from '#main/store/database';
import type { StoreSpace } from '#main/store/store-space';

/**
 * Events wait for the transaction that caused them: the renderer never hears of a change the
 * disk does not have.
 */
export interface Publisher {
  /** Sends now, or after the commit of the transaction that is running. */
  publish(send: () => void): void;
  /**
   * Runs fn in one transaction (one commit, one fsync, for a payment's inflow row, its sale
   * change and any alert) and sends the events it raised once that commit is done.
   */
  atomically<T>(fn: () => T): T;
}

/** With a StoreSpace, a full store fails the transaction (StoreFullError) and nothing is sent. */
export function createPublisher(db: Db, space?: StoreSpace): Publisher {
  let deferred: (() => void)[] | null = null;
  return {
    publish(send) {
      if (deferred) deferred.push(send);
      else send();
    },
    atomically(fn) {
      if (deferred) return fn();
      const queue: (() => void)[] = [];
      deferred = queue;
      let result;
      try {
        result = space ? space.transaction(fn) : db.transaction(fn)();
      } finally {
        deferred = null;
      }
      for (const send of queue) send();
      return result;
    },
  };
}
