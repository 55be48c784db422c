import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import type { Db } from '#main/store/database';
import {
  convertToIncrementalVacuum,
  hasIncrementalVacuum,
  runMaintenance,
  storeIsQuiet,
} from '#main/store/maintenance';
import { retentionRules } from '#main/store/retention';
import type { StoreSpace } from '#main/store/store-space';

/** The first pass a while after start (the start-up checks first), then every few hours. */
export const FIRST_MAINTENANCE_MS = 10 * 60_000;
export const MAINTENANCE_EVERY_MS = 6 * 60 * 60_000;
/** The one-off VACUUM waits for an hour with no sale made and none open. */
const QUIET_FOR_VACUUM_MS = 60 * 60_000;

export interface MaintenanceScheduleDeps {
  readonly db: Db;
  readonly space: StoreSpace;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly callbackBodyDays: () => number;
  /** Days a reduced callback is kept at all (retention.callbackRowDays, read at each pass). */
  readonly callbackRowDays: () => number;
}

/**
 * Runs the store's maintenance on a timer while the till sells: retention in small batches, the
 * space given back, the WAL checkpointed and cut back. Skipped while the disk is full (a pass
 * writes), stopped at close; the one-off change to incremental vacuum only when the shop is quiet.
 */
export function startMaintenanceSchedule(deps: MaintenanceScheduleDeps): {
  close(): Promise<void>;
} {
  const { db, space, scheduler, logger } = deps;
  let closed = false;
  let cancel: (() => void) | null = null;
  let running: Promise<void> | null = null;
  let cursor = 0;

  async function pass(): Promise<void> {
    if (space.isFull()) return;
    const report = await runMaintenance(db, {
      rules: retentionRules(deps.callbackBodyDays(), deps.callbackRowDays()),
      now: () => scheduler.now(),
      callbackCursor: cursor,
      stopped: () => closed || space.isFull(),
    });
    cursor = report.callbackCursor;
    logger.info({ ...report }, 'store maintenance pass');
    if (!closed && !hasIncrementalVacuum(db) && !space.isFull()) {
      if (storeIsQuiet(db, scheduler.now(), QUIET_FOR_VACUUM_MS)) {
        const started = Date.now();
        const converted = convertToIncrementalVacuum(db);
        logger.info({ converted, ms: Date.now() - started }, 'store changed to incremental vacuum');
      }
    }
  }

  function schedule(delayMs: number): void {
    cancel = scheduler.setTimer(delayMs, () => {
      cancel = null;
      if (closed) return;
      running = pass()
        .catch((error: unknown) => {
          space.noteFailure(error);
          logger.warn({ err: error }, 'store maintenance failed');
        })
        .finally(() => {
          running = null;
          if (!closed) schedule(MAINTENANCE_EVERY_MS);
        });
    });
  }

  schedule(FIRST_MAINTENANCE_MS);
  return {
    async close() {
      closed = true;
      cancel?.();
      await running;
    },
  };
}
