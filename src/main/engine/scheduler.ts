/**
 * Time as a dependency: the engine asks the scheduler for the time and for timers, so tests run
 * expiry and polling backoff in fake time while HTTP and SQLite stay real.
 */
export interface Scheduler {
  now(): number;
  /** Runs fn after delayMs; returns a function that cancels it. */
  setTimer(delayMs: number, fn: () => void): () => void;
}

export const systemScheduler: Scheduler = {
  now: () => Date.now(),
  setTimer(delayMs, fn) {
    const handle = setTimeout(fn, Math.max(0, delayMs));
    handle.unref?.();
    return () => clearTimeout(handle);
  },
};

interface ManualTimer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

/** A scheduler whose clock moves only when a test says so. */
export class ManualScheduler implements Scheduler {
  private current: number;
  private timers: ManualTimer[] = [];
  private nextId = 1;

  constructor(start = Date.UTC(2026, 10, 22, 9, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(delayMs: number, fn: () => void): () => void {
    const timer = { id: this.nextId++, at: this.current + Math.max(0, delayMs), fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t.id !== timer.id);
    };
  }

  /** Timers still waiting to run. */
  pending(): number {
    return this.timers.length;
  }

  /**
   * Moves the clock forward, running every timer that falls due in time order. `settle` is
   * awaited after each timer so that the work it started (real HTTP, SQLite) finishes first.
   */
  async advance(ms: number, settle: () => Promise<void> = () => Promise.resolve()): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.current = Math.max(this.current, next.at);
      next.fn();
      await settle();
    }
    this.current = target;
    await settle();
  }
}
