/**
 * Timers on a clock that moves only when a test says so, with one thing vitest's fake timers
 * cannot do: a page that was busy (`stall`), whose clock moved while no timer could run, so the
 * next timer fires late. For the event stream's watchdog (WatchdogTimers).
 */
export interface FakeTimers {
  readonly now: () => number;
  readonly set: (run: () => void, ms: number) => unknown;
  readonly clear: (handle: unknown) => void;
  /** Moves the clock, running each timer that falls due at its time. */
  advance(ms: number): void;
  /** The page was busy: the clock moves, no timer runs (they run late at the next advance). */
  stall(ms: number): void;
  /** Timers waiting now. */
  pending(): number;
  /** Timers set so far. */
  setCount(): number;
}

export function createFakeTimers(start = 0): FakeTimers {
  let current = start;
  let nextId = 1;
  let timers: { id: number; at: number; run: () => void }[] = [];
  return {
    now: () => current,
    set(run, ms) {
      const id = nextId++;
      timers.push({ id, at: current + Math.max(0, ms), run });
      return id;
    },
    clear(handle) {
      timers = timers.filter((timer) => timer.id !== handle);
    },
    advance(ms) {
      const target = current + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.id - b.id);
        const next = timers[0];
        if (!next || next.at > target) break;
        timers.shift();
        current = Math.max(current, next.at);
        next.run();
      }
      current = target;
    },
    stall(ms) {
      current += ms;
    },
    pending: () => timers.length,
    setCount: () => nextId - 1,
  };
}
