/**
 * The transaction sync: pulls the provider's listing (section 4.3) into the inflows table, one
 * short transaction per page, on demand, at start-up and on a schedule. One run at a time; a
 * run can be cancelled, and a run that failed, was cancelled or died with the process is
 * resumed from its saved offset by the next incremental request. Which part of the listing an
 * incremental run reads is decided in listing-order.ts (the rule is written there); the read of
 * the listing itself, page by page, is listing-read.ts.
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
import { isProviderError } from '#main/provider/errors';
import type { PaginationStopReason } from '#main/provider/pagination';
import type { TransactionRecord } from '#main/provider/schemas';
import type { Db } from '#main/store/database';
import {
  finishSyncRun,
  getSyncRunOrThrow,
  insertSyncRun,
  lastCompleteSyncRun,
  latestSyncRun,
  markStaleRunsInterrupted,
  reopenSyncRun,
  restartSyncRunFromZero,
  type SyncMode,
  type SyncRunRow,
} from '#main/store/sync-runs-repo';
import { resolveUnseenUnreadableRows } from '#main/store/unreadable-repo';
import { DEFAULT_SKEW_MARGIN_MS, planIncremental, type SyncPlan } from './listing-order';
import type { ListedRowChange, ListedRowNotice } from './listing-page';
import { readListing, type ListingReadContext } from './listing-read';
import { RESUMABLE_STATUSES, toSyncRunView } from './sync-runs';
import { AppError } from '#shared/errors';

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

export interface SyncRequest {
  readonly mode: SyncMode;
  /** Who asked: 'user', 'startup', 'schedule', 'resume'... (kept with the run). */
  readonly trigger: string;
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

function stopMessage(reason: PaginationStopReason, collectedTo: number, count: number): string {
  switch (reason) {
    case 'empty_page':
      return `The provider's list ended after ${collectedTo} transactions although it says it holds ${count}. Everything it returned was saved; sync again later, and tell the provider's support if this repeats.`;
    case 'no_progress':
      return "The provider kept returning the same transactions for every page (it seems to ignore the offset). What it returned was saved; tell the provider's support.";
    case 'page_budget':
      return `The provider's list kept growing or repeating (read up to ${collectedTo} of ${count}); stopped to avoid an endless sync. Sync again later.`;
    case 'complete':
      return '';
  }
}

export function createTransactionSync(deps: TransactionSyncDeps): TransactionSync {
  const { db, scheduler, logger, events } = deps;
  const pageLimit = deps.pageLimit ?? DEFAULT_PAGE_LIMIT;
  const readAheadDepth = deps.readAhead ?? DEFAULT_READ_AHEAD;
  const skewMarginMs = deps.skewMarginMs ?? DEFAULT_SKEW_MARGIN_MS;
  if (!Number.isSafeInteger(pageLimit) || pageLimit < 1) {
    throw new SyncError('INVALID_OPTION', 'pageLimit must be a whole number, 1 or more');
  }
  let active: ActiveRun | null = null;
  let cancelSchedule: (() => void) | null = null;
  let scheduleMs: number | null = null;
  /** Bumped by start/stop, so the end of a run started by an old schedule arms nothing. */
  let generation = 0;
  const readContext: ListingReadContext = {
    db,
    client: deps.client,
    scheduler,
    logger,
    pageLimit,
    readAheadDepth,
    progress: (progress) => emit(() => events.progress(progress)),
    notify: (notice) => notifyEngine(notice),
  };

  // Nothing runs in this process yet, so a 'running' row belongs to a process that died.
  markStaleRunsInterrupted(db, scheduler.now());

  function view(id: number): SyncRunView {
    return toSyncRunView(getSyncRunOrThrow(db, id));
  }

  /** The run row to work on and where to start reading. */
  function openRun(request: SyncRequest): { row: SyncRunRow; plan: SyncPlan } {
    const now = scheduler.now();
    markStaleRunsInterrupted(db, now);
    const latest = latestSyncRun(db);
    if (request.mode === 'incremental' && latest && RESUMABLE_STATUSES.has(latest.status)) {
      const row = reopenSyncRun(db, latest.id);
      const plan = resumePlan(row);
      logger.info(
        { runId: row.id, from: row.nextOffset, previousStatus: latest.status },
        'resuming an unfinished sync',
      );
      return { row, plan };
    }
    const plan: SyncPlan =
      request.mode === 'full'
        ? { kind: 'full', startOffset: 0, reason: 'full sync requested' }
        : planIncremental(lastCompleteSyncRun(db), skewMarginMs);
    const row = insertSyncRun(
      db,
      { mode: request.mode, trigger: request.trigger, startOffset: plan.startOffset, pageLimit },
      now,
    );
    logger.info({ runId: row.id, plan }, 'sync started');
    return { row, plan };
  }

  /** A resumed run reads on from its saved offset; a head read keeps its stop rule. */
  function resumePlan(row: SyncRunRow): SyncPlan {
    if (
      row.mode === 'incremental' &&
      row.startOffset === 0 &&
      row.listingOrder !== 'oldest_first'
    ) {
      const planned = planIncremental(lastCompleteSyncRun(db), skewMarginMs);
      if (planned.kind === 'head') return planned;
    }
    return { kind: 'full', startOffset: 0, reason: 'resumed' };
  }

  /** A listener that throws must not end a sync. */
  function emit(send: () => void): void {
    try {
      send();
    } catch (error) {
      logger.error({ err: error }, 'a sync event listener failed');
    }
  }

  function notifyEngine({ tx, change }: ListedRowNotice): void {
    if (!deps.onRow) return;
    try {
      deps.onRow(tx, change);
    } catch (error) {
      logger.error(
        { err: error, sessionId: tx.sessionId },
        'the engine could not take a listed row',
      );
    }
  }

  async function execute(
    row: SyncRunRow,
    plan: SyncPlan,
    signal: AbortSignal,
  ): Promise<SyncRunView> {
    let current = row;
    let currentPlan = plan;
    let finished: SyncRunRow;
    try {
      for (;;) {
        const ending = await readListing(
          readContext,
          current,
          currentPlan,
          current.nextOffset,
          signal,
        );
        if (ending.kind === 'restart') {
          logger.warn(
            { runId: current.id, why: ending.why },
            'incremental sync falls back to full',
          );
          current = restartSyncRunFromZero(db, current.id);
          currentPlan = { kind: 'full', startOffset: 0, reason: ending.why };
          continue;
        }
        const latest = getSyncRunOrThrow(db, current.id);
        if (ending.kind === 'complete' && ending.coveredFrom !== null) {
          const resolved = resolveUnseenUnreadableRows(
            db,
            current.id,
            scheduler.now(),
            ending.coveredFrom,
          );
          if (resolved > 0) {
            logger.info(
              { runId: current.id, resolved },
              'listing rows that could not be read before were read this time',
            );
          }
        }
        finished =
          ending.kind === 'complete'
            ? finishSyncRun(
                db,
                current.id,
                { status: 'complete', error: null, listingOrder: ending.order ?? 'unknown' },
                scheduler.now(),
              )
            : finishSyncRun(
                db,
                current.id,
                {
                  status: 'failed',
                  error: stopMessage(ending.reason, latest.nextOffset, ending.count),
                },
                scheduler.now(),
              );
        break;
      }
    } catch (error) {
      const cancelled = signal.aborted || (isProviderError(error) && error.code === 'ABORTED');
      const message = cancelled
        ? 'Cancelled. The next sync carries on from here.'
        : isProviderError(error)
          ? error.message
          : `The sync stopped: ${error instanceof Error ? error.message : String(error)}`;
      if (!cancelled) logger.warn({ runId: current.id, err: error }, 'sync failed');
      finished = finishSyncRun(
        db,
        current.id,
        { status: cancelled ? 'cancelled' : 'failed', error: message },
        scheduler.now(),
      );
    }
    const result = toSyncRunView(finished);
    logger.info(
      {
        runId: result.id,
        status: result.status,
        collected: result.collected,
        inserted: result.inserted,
        unreadable: result.unreadable,
        providerPageSize: result.providerPageSize,
      },
      'sync finished',
    );
    emit(() => events.finished(result));
    return result;
  }

  function run(request: SyncRequest): Promise<SyncRunView> {
    if (active) return active.promise;
    const { row, plan } = openRun(request);
    const controller = new AbortController();
    const promise = execute(row, plan, controller.signal).finally(() => {
      if (active?.id === row.id) active = null;
    });
    active = { id: row.id, promise, controller };
    return promise;
  }

  function armSchedule(forGeneration: number): void {
    if (scheduleMs === null || forGeneration !== generation) return;
    cancelSchedule?.();
    cancelSchedule = scheduler.setTimer(scheduleMs, () => {
      cancelSchedule = null;
      void run({ mode: 'incremental', trigger: 'schedule' }).finally(() =>
        armSchedule(forGeneration),
      );
    });
  }

  return {
    run,
    cancel() {
      if (!active) return false;
      active.controller.abort();
      return true;
    },
    current: () => (active ? view(active.id) : null),
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
      cancelSchedule?.();
      cancelSchedule = null;
      scheduleMs = intervalMinutes * 60_000;
      const forGeneration = ++generation;
      void run({ mode: 'incremental', trigger: 'startup' }).finally(() =>
        armSchedule(forGeneration),
      );
    },
    stopSchedule() {
      generation += 1;
      scheduleMs = null;
      cancelSchedule?.();
      cancelSchedule = null;
    },
    async resumeInterrupted() {
      if (active) return active.promise;
      markStaleRunsInterrupted(db, scheduler.now());
      const latest = latestSyncRun(db);
      if (!latest || !RESUMABLE_STATUSES.has(latest.status)) return null;
      return run({ mode: 'incremental', trigger: 'resume' });
    },
  };
}
