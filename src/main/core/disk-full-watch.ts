import type { BridgeEvent } from '#shared/bridge/contract';
import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import { raiseTillAlert, type NewAlert } from '#main/engine/till-alerts';
import type { Db } from '#main/store/database';
import {
  DISK_FULL_MESSAGE,
  isStoreFullError,
  type StoreSpace,
  type StoreSpaceChange,
} from '#main/store/store-space';

/** How often a full store is tried again, and how often a healthy one is looked at. */
export const FULL_PROBE_MS = 15_000;
export const HEALTHY_PROBE_MS = 5 * 60_000;

export interface DiskFullWatchDeps {
  readonly db: Db;
  readonly space: StoreSpace;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly emit: (event: BridgeEvent) => void;
  readonly timeText: (at: number) => string;
}

/**
 * Tells the till and the owner about a full store: the banner's event at once, an alert when it
 * became full (stored as soon as the store takes it, with the time it began) and one when it
 * recovered; and tries the store again on a timer, so everything resumes by itself when space
 * returns even with no sale running.
 */
export function startDiskFullWatch(deps: DiskFullWatchDeps): { close(): void } {
  const { db, space, scheduler, logger, emit } = deps;
  let pending: NewAlert | null = null;
  let cancelTimer: (() => void) | null = null;
  let closed = false;

  function store(alert: NewAlert, at: number): boolean {
    try {
      const view = raiseTillAlert(db, alert, at);
      if (view) emit({ type: 'alert', payload: view });
      return true;
    } catch (error) {
      if (isStoreFullError(error)) return false;
      throw error;
    }
  }

  function onChange(change: StoreSpaceChange): void {
    emit({ type: 'store-space', payload: space.view() });
    if (change.kind === 'full') {
      logger.error({ since: change.since }, 'the store is full: new sales are refused');
      const alert: NewAlert = {
        level: 'error',
        kind: 'disk_full',
        message: `${DISK_FULL_MESSAGE} (since ${deps.timeText(change.since)})`,
        dedupeKey: `disk_full:${change.since}`,
      };
      pending = store(alert, change.since) ? null : alert;
    } else {
      logger.info({ since: change.since }, 'the store can write again');
      if (pending) store(pending, change.since);
      pending = null;
      store(
        {
          level: 'info',
          kind: 'disk_recovered',
          message: `The till's disk has room again (it was full from ${deps.timeText(change.since)} to ${deps.timeText(change.at)}). New sales can start; payments found meanwhile are recorded.`,
          dedupeKey: `disk_recovered:${change.since}`,
        },
        change.at,
      );
    }
    schedule();
  }

  function schedule(): void {
    cancelTimer?.();
    if (closed) return;
    cancelTimer = scheduler.setTimer(space.isFull() ? FULL_PROBE_MS : HEALTHY_PROBE_MS, () => {
      cancelTimer = null;
      try {
        space.probe();
      } catch (error) {
        logger.warn({ err: error }, 'the store space probe failed');
      }
      schedule();
    });
  }

  const unsubscribe = space.subscribe(onChange);
  schedule();
  return {
    close() {
      closed = true;
      unsubscribe();
      cancelTimer?.();
      cancelTimer = null;
    },
  };
}
