/**
 * Time as a dependency: the engine asks the scheduler for the time and for timers, so tests run
 * expiry and polling backoff in fake time (test/support/clock.ts) while HTTP and SQLite stay real.
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

/** A timer waiting in a scheduler's own queue (here and in the tests' manual clock). */
export interface QueuedTimer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

/**
 * Real time plus an offset that can only move forward: the "fast-forward" clock of the browser
 * shell's --dev-clock mode (end-to-end tests and training), shared by the engine and the
 * embedded sandbox so that a 15-minute expiry can be reached in a moment. Timers fire when the
 * shifted clock reaches them, whether real time or a jump got it there.
 */
export class AdjustableScheduler implements Scheduler {
  private offset = 0;
  private timers: QueuedTimer[] = [];
  private nextId = 1;
  private wake: ReturnType<typeof setTimeout> | null = null;

  now(): number {
    return Date.now() + this.offset;
  }

  setTimer(delayMs: number, fn: () => void): () => void {
    const timer = { id: this.nextId++, at: this.now() + Math.max(0, delayMs), fn };
    this.timers.push(timer);
    this.arm();
    return () => {
      this.timers = this.timers.filter((t) => t.id !== timer.id);
      this.arm();
    };
  }

  /** Jumps the clock forward; due timers run in time order. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The clock only moves forward');
    this.offset += ms;
    this.fireDue();
  }

  private fireDue(): void {
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > this.now()) break;
      this.timers.shift();
      next.fn();
    }
    this.arm();
  }

  private arm(): void {
    if (this.wake) clearTimeout(this.wake);
    this.wake = null;
    const next = this.timers.reduce<number | null>(
      (min, t) => (min === null || t.at < min ? t.at : min),
      null,
    );
    if (next === null) return;
    this.wake = setTimeout(() => this.fireDue(), Math.max(0, next - this.now()));
    this.wake.unref?.();
  }
}
