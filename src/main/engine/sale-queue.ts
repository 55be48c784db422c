/**
 * One queue per sale: all work on a sale (checks, callbacks, deadlines, presses) runs one task
 * after another, so two reports of the same payment cannot race. Every task and every tracked
 * promise counts for idle(), which close() waits on before the database closes.
 */
export interface SaleQueue {
  /** Runs fn after every earlier task of the same sale has finished. */
  run<T>(saleId: number, fn: () => Promise<T>): Promise<T>;
  /** Counts a promise for idle() without queueing it. */
  track<T>(promise: Promise<T>): Promise<T>;
  /** Resolves once nothing tracked is running (including work started meanwhile). */
  idle(): Promise<void>;
}

export function createSaleQueue(): SaleQueue {
  const tails = new Map<number, Promise<unknown>>();
  const inFlight = new Set<Promise<unknown>>();

  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }

  return {
    track,
    run<T>(saleId: number, fn: () => Promise<T>): Promise<T> {
      const previous = tails.get(saleId) ?? Promise.resolve();
      const next = previous.catch(() => undefined).then(fn);
      tails.set(saleId, next);
      void next
        .finally(() => {
          if (tails.get(saleId) === next) tails.delete(saleId);
        })
        .catch(() => undefined);
      return track(next);
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
