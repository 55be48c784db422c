/**
 * The payments the callback health waits on: each payment a check (not a callback) found gets a
 * window for its callback, judged only once the window has passed; and the memory of the
 * callbacks seen (by session id and by reference, bounded) that answers whether one came.
 */

/** Keeps the memory of seen callbacks bounded on a busy till. */
const MAX_REMEMBERED = 5_000;

export interface WatchedPayment {
  readonly saleId: number | null;
  readonly reference: string;
  readonly sessionId: string;
  /** A callback for this payment received at or after this time counts. */
  readonly from: number;
}

export interface PaymentFound {
  readonly saleId: number | null;
  readonly reference: string;
  readonly sessionId: string;
  readonly settledAt: number | null;
  readonly foundAt: number;
}

export interface CallbackWatchesOptions {
  readonly now: () => number;
  readonly setTimer: (delayMs: number, fn: () => void) => () => void;
  readonly windowMs: number;
  readonly graceMs: number;
  /** A watched payment's window passed (whether its callback came is `covered`'s answer). */
  readonly windowPassed: (payment: WatchedPayment) => void;
}

export interface CallbackWatches {
  /** A callback arrived: it covers the payments of its session id, reference or (with neither) all. */
  received(input: {
    readonly at: number;
    readonly reference?: string;
    readonly sessionId?: string;
  }): void;
  /** A check found a payment: its callback is awaited, unless it came already or is watched. */
  found(input: PaymentFound): void;
  covered(payment: Pick<WatchedPayment, 'reference' | 'sessionId' | 'from'>): boolean;
  /** A new route: earlier watches and callbacks say nothing about it. */
  clear(): void;
}

export function createCallbackWatches(options: CallbackWatchesOptions): CallbackWatches {
  const { windowMs, graceMs } = options;
  const watches = new Map<string, WatchedPayment & { readonly cancel: () => void }>();
  /** Latest receipt time of a callback per session id and per reference. */
  const bySession = new Map<string, number>();
  const byReference = new Map<string, number>();
  let anonymousAt = Number.NEGATIVE_INFINITY;

  function covered(payment: Pick<WatchedPayment, 'reference' | 'sessionId' | 'from'>): boolean {
    if (bySession.has(payment.sessionId)) return true;
    const byRef = byReference.get(payment.reference);
    return (byRef !== undefined && byRef >= payment.from) || anonymousAt >= payment.from;
  }

  return {
    received(input) {
      remember(bySession, input.sessionId, input.at);
      remember(byReference, input.reference, input.at);
      if (!input.sessionId && !input.reference) anonymousAt = Math.max(anonymousAt, input.at);
    },
    found(input) {
      if (watches.has(input.sessionId)) return;
      const settledAt = input.settledAt ?? input.foundAt;
      const base = Math.min(input.foundAt, Math.max(settledAt, input.foundAt - windowMs));
      const payment = {
        saleId: input.saleId,
        reference: input.reference,
        sessionId: input.sessionId,
        from: base - windowMs,
      };
      if (covered(payment)) return;
      const dueAt = Math.max(base + windowMs, input.foundAt + graceMs);
      const cancel = options.setTimer(Math.max(0, dueAt - options.now()), () => {
        const watched = watches.get(input.sessionId);
        if (!watched) return;
        watches.delete(input.sessionId);
        options.windowPassed(watched);
      });
      watches.set(input.sessionId, { ...payment, cancel });
    },
    covered,
    clear() {
      for (const watch of watches.values()) watch.cancel();
      watches.clear();
      bySession.clear();
      byReference.clear();
      anonymousAt = Number.NEGATIVE_INFINITY;
    },
  };
}

function remember(map: Map<string, number>, key: string | undefined, at: number): void {
  if (key === undefined || key === '') return;
  if (map.size >= MAX_REMEMBERED && !map.has(key)) {
    // Map keeps insertion order: the first key is the oldest one.
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  const previous = map.get(key) ?? at;
  map.delete(key);
  map.set(key, Math.max(at, previous));
}
