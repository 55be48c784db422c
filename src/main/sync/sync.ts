/**
 * The transaction sync: pulls the provider's listing (section 4.3) into the inflows table, one
 * short transaction per page, on demand, at start-up and on a schedule. One run at a time; a
 * run can be cancelled, and a run that failed, was cancelled or died with the process is
 * resumed from its saved offset by the next incremental request. Which part of the listing an
 * incremental run reads is decided in listing-order.ts (the rule is written there); the read of
 * the listing itself, page by page, is listing-read.ts; opening a run is run-open.ts, running it
 * to its written end run-execute.ts, the schedule sync-schedule.ts.
 *
 * Rows are written in bulk (listing-page.ts: one page, a few compiled statements) rather than
 * one by one through the sales engine, which would cost several statements and a transaction
 * per row.
 * The engine only needs the rows that can change a sale or raise an alert: a new success for a
 * local sale or account, a success for a local sale not yet marked paid, a stored status that
 * changed (a late settlement, a reversal) and an amount that disagrees with the stored one.
 * Those go to `onRow` with what changed, after their page is committed; wire it to the
 * engine's recordListedTransaction, which confirms the sale, flags a late payment or raises
 * the alert.
 *
 * A row the client could not read does not stop the run: it is kept (raw) with the run that
 * met it, counted, and shown in the report. Its offset counts as not settled, so the next tail
 * read (oldest first) starts at it again; a later complete read over its offset that no longer
 * meets it (the provider now serves it readable, so that read took it in) marks it resolved.
 */
import type { SyncProgressView, SyncRunView } from '#shared/views';
import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import type { ProviderClient } from '#main/provider/client';
import type { TransactionRecord } from '#main/provider/schemas';
import type { Db } from '#main/store/database';
import {
  getSyncRunOrThrow,
  latestSyncRun,
  markStaleRunsInterrupted,
} from '#main/store/sync-runs-repo';
import { DEFAULT_SKEW_MARGIN_MS } from './listing-order';
import type { ListedRowChange, ListedRowNotice } from './listing-page';
import type { ListingReadContext } from './listing-read';
import { executeSyncRun, type RunExecuteContext } from './run-execute';
import { openSyncRun, type RunOpenContext, type SyncRequest } from './run-open';
import { createSyncSchedule } from './sync-schedule';
import { RESUMABLE_STATUSES, toSyncRunView } from './sync-runs';
import { AppError } from '#shared/errors';

export type { SyncRequest } from './run-open';

export const DEFAULT_PAGE_LIMIT = 100;
/** Pages requested ahead of the one being written. */
export const DEFAULT_READ_AHEAD = 2;

export class SyncError extends AppError<'INVALID_OPTION'> {
  constructor(code: 'INVALID_OPTION', message: string) {
    super(code, message);
    this.name = 'SyncError';
  }
}

export interface SyncEvents {
  progress(progress: SyncProgressView): void;
  finished(run: SyncRunView): void;
}

export interface TransactionSyncDeps {
  readonly db: Db;
  readonly client: () => ProviderClient;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** Listing rows the sales engine must see, with what changed (see the comment at the top). */
  readonly onRow?: (tx: TransactionRecord, change: ListedRowChange) => void;
  readonly events: SyncEvents;
  readonly pageLimit?: number;
  readonly readAhead?: number;
  readonly skewMarginMs?: number;
}

export interface TransactionSync {
  /** Starts a run, or returns the running one. Resolves when the run ends, whatever the outcome. */
  run(request: SyncRequest): Promise<SyncRunView>;
  /** Cancels the running run; false when none runs. */
  cancel(): boolean;
  current(): SyncRunView | null;
  lastRun(): SyncRunView | null;
  /** A run now (trigger 'startup'), then one every `intervalMinutes` after each run ends. */
  startSchedule(intervalMinutes: number): void;
  stopSchedule(): void;
  /**
   * Marks runs a dead process left 'running' as 'interrupted', then resumes the latest run if
   * it did not finish. Resolves with that run's outcome, or null when nothing was left to do.
   */
  resumeInterrupted(): Promise<SyncRunView | null>;
}

interface ActiveRun {
  readonly id: number;
  readonly promise: Promise<SyncRunView>;
  readonly controller: AbortController;
}

/** A listener that throws must not end a sync. */
function guarded(logger: Logger, send: () => void): void {
  try {
    send();
  } catch (error) {
    logger.error({ err: error }, 'a sync event listener failed');
  }
}

/** Hands a listed row to the sales engine; an engine that throws must not end a sync. */
function notifyEngine(deps: TransactionSyncDeps, { tx, change }: ListedRowNotice): void {
  if (!deps.onRow) return;
  try {
    deps.onRow(tx, change);
  } catch (error) {
    deps.logger.error(
      { err: error, sessionId: tx.sessionId },
      'the engine could not take a listed row',
    );
  }
}

function runContexts(deps: TransactionSyncDeps): {
  open: RunOpenContext;
  execute: RunExecuteContext;
} {
  const { db, scheduler, logger, events } = deps;
  const pageLimit = deps.pageLimit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isSafeInteger(pageLimit) || pageLimit < 1) {
    throw new SyncError('INVALID_OPTION', 'pageLimit must be a whole number, 1 or more');
  }
  const read: ListingReadContext = {
    db,
    client: deps.client,
    scheduler,
    logger,
    pageLimit,
    readAheadDepth: deps.readAhead ?? DEFAULT_READ_AHEAD,
    progress: (progress) => guarded(logger, () => events.progress(progress)),
    notify: (notice) => notifyEngine(deps, notice),
  };
  return {
    open: { db, logger, pageLimit, skewMarginMs: deps.skewMarginMs ?? DEFAULT_SKEW_MARGIN_MS },
    execute: {
      db,
      scheduler,
      logger,
      read,
      finished: (run) => guarded(logger, () => events.finished(run)),
    },
  };
}

export function createTransactionSync(deps: TransactionSyncDeps): TransactionSync {
  const { db, scheduler } = deps;
  const contexts = runContexts(deps);
  let active: ActiveRun | null = null;

  // Nothing runs in this process yet, so a 'running' row belongs to a process that died.
  markStaleRunsInterrupted(db, scheduler.now());

  function run(request: SyncRequest): Promise<SyncRunView> {
    if (active) return active.promise;
    const { row, plan } = openSyncRun(contexts.open, request, scheduler.now());
    const controller = new AbortController();
    const promise = executeSyncRun(contexts.execute, row, plan, controller.signal).finally(() => {
      if (active?.id === row.id) active = null;
    });
    active = { id: row.id, promise, controller };
    return promise;
  }
  const schedule = createSyncSchedule(scheduler, run);

  return {
    run,
    cancel() {
      if (!active) return false;
      active.controller.abort();
      return true;
    },
    current: () => (active ? toSyncRunView(getSyncRunOrThrow(db, active.id)) : null),
    lastRun() {
      const latest = latestSyncRun(db);
      return latest ? toSyncRunView(latest) : null;
    },
    startSchedule(intervalMinutes: number) {
      if (!Number.isFinite(intervalMinutes) || intervalMinutes <= 0) {
        throw new SyncError(
          'INVALID_OPTION',
          'The sync interval must be a positive number of minutes',
        );
      }
      schedule.start(intervalMinutes);
    },
    stopSchedule: () => schedule.stop(),
    async resumeInterrupted() {
      if (active) return active.promise;
      markStaleRunsInterrupted(db, scheduler.now());
      const latest = latestSyncRun(db);
      if (!latest || !RESUMABLE_STATUSES.has(latest.status)) return null;
      return run({ mode: 'incremental', trigger: 'resume' });
    },
  };
}
