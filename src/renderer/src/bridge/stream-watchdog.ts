/**
 * Notices a silent link: the till service writes on every event stream at least every
 * STREAM_HEARTBEAT_MS, so `silenceMs` without a byte means the connection is dead even though
 * nothing closed it (a hub's cable pulled, its Wi-Fi gone). One timer per silence, not one per
 * frame: a frame only notes the time, and the timer looks again when it fires.
 */

/** A timer that fires this much later than asked means this page itself was busy. */
export const LATE_TIMER_MS = 250;

export interface WatchdogTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const REAL_TIMERS: WatchdogTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface WatchdogOptions {
  readonly silenceMs: number;
  /** Called once per watch, when nothing was heard for silenceMs. */
  readonly onSilent: () => void;
  readonly now?: () => number;
  readonly timers?: WatchdogTimers;
}

export interface Watchdog {
  /**
   * Starts a watch now (a connection opened): silence is counted from here. `firstByteMs`: how
   * long the first byte may take (silenceMs by default); after it, silenceMs holds.
   */
  watch(firstByteMs?: number): void;
  /** Something arrived on the watched connection. */
  heard(): void;
  /** No more watching (the connection was dropped). */
  stop(): void;
}

export function createWatchdog(options: WatchdogOptions): Watchdog {
  const now = options.now ?? (() => Date.now());
  const timers = options.timers ?? REAL_TIMERS;
  let handle: unknown = null;
  let lastHeard = 0;
  let limit = options.silenceMs;

  function cancel(): void {
    if (handle !== null) timers.clear(handle);
    handle = null;
  }

  function lookAt(dueAt: number): void {
    cancel();
    handle = timers.set(() => check(dueAt), Math.max(0, dueAt - now()));
  }

  function check(dueAt: number): void {
    handle = null;
    const at = now();
    // This page was busy (a long render on a slow phone, a tab woken up): frames that arrived
    // meanwhile may be queued behind this timer. Let them run, then look again.
    if (at - dueAt > LATE_TIMER_MS) {
      lookAt(at + LATE_TIMER_MS);
      return;
    }
    if (at - lastHeard >= limit) options.onSilent();
    else lookAt(lastHeard + limit);
  }

  return {
    watch(firstByteMs = options.silenceMs) {
      limit = firstByteMs;
      lastHeard = now();
      lookAt(lastHeard + limit);
    },
    heard() {
      lastHeard = now();
      // A watch's own limit (a first try's longer wait) holds until its first byte.
      if (limit !== options.silenceMs && handle !== null) {
        limit = options.silenceMs;
        lookAt(lastHeard + limit);
      }
    },
    stop: cancel,
  };
}
