/**
 * The sync's schedule: a run now, then one every interval after each run ends (never two at
 * once, never a run armed by a schedule that was stopped or replaced meanwhile).
 */
import type { Scheduler } from '#main/clock/scheduler';
import type { SyncRequest } from './run-open';

export interface SyncSchedule {
  start(intervalMinutes: number): void;
  stop(): void;
}

export function createSyncSchedule(
  scheduler: Scheduler,
  run: (request: SyncRequest) => Promise<unknown>,
): SyncSchedule {
  let cancelTimer: (() => void) | null = null;
  let intervalMs: number | null = null;
  /** Bumped by start/stop, so the end of a run started by an old schedule arms nothing. */
  let generation = 0;

  function arm(forGeneration: number): void {
    if (intervalMs === null || forGeneration !== generation) return;
    cancelTimer?.();
    cancelTimer = scheduler.setTimer(intervalMs, () => {
      cancelTimer = null;
      void run({ mode: 'incremental', trigger: 'schedule' }).finally(() => arm(forGeneration));
    });
  }

  return {
    start(intervalMinutes) {
      cancelTimer?.();
      cancelTimer = null;
      intervalMs = intervalMinutes * 60_000;
      const forGeneration = ++generation;
      void run({ mode: 'incremental', trigger: 'startup' }).finally(() => arm(forGeneration));
    },
    stop() {
      generation += 1;
      intervalMs = null;
      cancelTimer?.();
      cancelTimer = null;
    },
  };
}
