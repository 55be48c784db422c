/**
 * One sync run from its opened row to its written end: the read of the listing (restarted as a
 * full read when a tail read's assumption fails), the unreadable rows a complete read no longer
 * met, and the run's end written down (complete, stopped by the listing, cancelled or failed).
 */
import type { SyncRunView } from '#shared/views';
import { countOf } from '#shared/plural';
import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import { isProviderError } from '#main/provider/errors';
import type { PaginationStopReason } from '#main/provider/pagination';
import type { Db } from '#main/store/database';
import {
  finishSyncRun,
  getSyncRunOrThrow,
  restartSyncRunFromZero,
  type SyncRunRow,
} from '#main/store/sync-runs-repo';
import { resolveUnseenUnreadableRows } from '#main/store/unreadable-repo';
import type { SyncPlan } from './listing-order';
import { readListing, type Ending, type ListingReadContext } from './listing-read';
import { toSyncRunView } from './sync-runs';

export interface RunExecuteContext {
  readonly db: Db;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly read: ListingReadContext;
  /** The run's end, told to the listeners (must not throw). */
  finished(run: SyncRunView): void;
}

function stopMessage(reason: PaginationStopReason, collectedTo: number, count: number): string {
  switch (reason) {
    case 'empty_page':
      return `The provider's list ended after ${countOf(collectedTo, 'transaction')} although it says it holds ${count}. Everything it returned was saved; sync again later, and tell the provider's support if this repeats.`;
    case 'no_progress':
      return "The provider kept returning the same transactions for every page (it seems to ignore the offset). What it returned was saved; tell the provider's support.";
    case 'page_budget':
      return `The provider's list kept growing or repeating (read up to ${collectedTo} of ${count}); stopped to avoid an endless sync. Sync again later.`;
    case 'complete':
      return '';
  }
}

/** Writes down how a read that did not restart ended. */
function finishRead(
  ctx: RunExecuteContext,
  runId: number,
  ending: Exclude<Ending, { kind: 'restart' }>,
): SyncRunRow {
  const { db, scheduler, logger } = ctx;
  const latest = getSyncRunOrThrow(db, runId);
  if (ending.kind === 'complete' && ending.coveredFrom !== null) {
    const resolved = resolveUnseenUnreadableRows(db, runId, scheduler.now(), ending.coveredFrom);
    if (resolved > 0) {
      logger.info(
        { runId, resolved },
        'listing rows that could not be read before were read this time',
      );
    }
  }
  return ending.kind === 'complete'
    ? finishSyncRun(
        db,
        runId,
        { status: 'complete', error: null, listingOrder: ending.order ?? 'unknown' },
        scheduler.now(),
      )
    : finishSyncRun(
        db,
        runId,
        { status: 'failed', error: stopMessage(ending.reason, latest.nextOffset, ending.count) },
        scheduler.now(),
      );
}

/** Reads the listing until it ends, restarting from zero when a tail read's assumption fails. */
async function readToEnd(
  ctx: RunExecuteContext,
  row: SyncRunRow,
  plan: SyncPlan,
  signal: AbortSignal,
): Promise<SyncRunRow> {
  let current = row;
  let currentPlan = plan;
  for (;;) {
    const ending = await readListing(ctx.read, current, currentPlan, current.nextOffset, signal);
    if (ending.kind !== 'restart') return finishRead(ctx, current.id, ending);
    ctx.logger.warn({ runId: current.id, why: ending.why }, 'incremental sync falls back to full');
    current = restartSyncRunFromZero(ctx.db, current.id);
    currentPlan = { kind: 'full', startOffset: 0, reason: ending.why };
  }
}

/** Writes down a run that threw: cancelled by the cashier, or failed. */
function finishThrown(
  ctx: RunExecuteContext,
  runId: number,
  error: unknown,
  signal: AbortSignal,
): SyncRunRow {
  const cancelled = signal.aborted || (isProviderError(error) && error.code === 'ABORTED');
  const message = cancelled
    ? 'Cancelled. The next sync carries on from here.'
    : isProviderError(error)
      ? error.message
      : `The sync stopped: ${error instanceof Error ? error.message : String(error)}`;
  if (!cancelled) ctx.logger.warn({ runId, err: error }, 'sync failed');
  return finishSyncRun(
    ctx.db,
    runId,
    { status: cancelled ? 'cancelled' : 'failed', error: message },
    ctx.scheduler.now(),
  );
}

/** Runs an opened run to its end; resolves with the run as written, whatever the outcome. */
export async function executeSyncRun(
  ctx: RunExecuteContext,
  row: SyncRunRow,
  plan: SyncPlan,
  signal: AbortSignal,
): Promise<SyncRunView> {
  let finished: SyncRunRow;
  try {
    finished = await readToEnd(ctx, row, plan, signal);
  } catch (error) {
    // A restart re-reads under the same run id, so the row to finish is still `row.id`.
    finished = finishThrown(ctx, row.id, error, signal);
  }
  const result = toSyncRunView(finished);
  ctx.logger.info(
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
  ctx.finished(result);
  return result;
}
