/**
 * The tests' one manual clock: a scheduler whose time moves only when a test says so. The engine,
 * the sync and the sandbox all take it as their `now`, so expiry, backoff and provider dates run
 * in fake time while HTTP and SQLite stay real.
 */
import type { QueuedTimer, Scheduler } from '#main/clock/scheduler';

export class ManualScheduler implements Scheduler {
  private current: number;
  private timers: QueuedTimer[] = [];
  private nextId = 1;

  constructor(start = Date.UTC(2026, 10, 22, 9, 0, 0)) {
    this.current = start;
  }

  /** A bound function, so `now: clock.now` can be handed to the sandbox as it is. */
  readonly now = (): number => this.current;

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
   * awaited first, so that work already in flight (a start-up check, a call just made) finishes
   * at the time it started, and after each timer, so that the work the timer started (real HTTP,
   * SQLite) finishes before the clock moves on.
   */
  async advance(ms: number, settle: () => Promise<void> = () => Promise.resolve()): Promise<void> {
    const target = this.current + ms;
    await settle();
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
