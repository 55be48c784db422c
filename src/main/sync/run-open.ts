/**
 * Which run row a sync request works on and where it starts reading: an unfinished run is
 * resumed from its saved offset; otherwise a new run follows the plan of listing-order.ts.
 */
import type { Logger } from '#main/logging/logger';
import type { Db } from '#main/store/database';
import {
  insertSyncRun,
  lastCompleteSyncRun,
  latestSyncRun,
  markStaleRunsInterrupted,
  reopenSyncRun,
  type SyncMode,
  type SyncRunRow,
} from '#main/store/sync-runs-repo';
import { planIncremental, type SyncPlan } from './listing-order';
import { RESUMABLE_STATUSES } from './sync-runs';

export interface SyncRequest {
  readonly mode: SyncMode;
  /** Who asked: 'user', 'startup', 'schedule', 'resume'... (kept with the run). */
  readonly trigger: string;
}

export interface RunOpenContext {
  readonly db: Db;
  readonly logger: Logger;
  readonly pageLimit: number;
  readonly skewMarginMs: number;
}

/** A resumed run reads on from its saved offset; a head read keeps its stop rule. */
function resumePlan(ctx: RunOpenContext, row: SyncRunRow): SyncPlan {
  if (row.mode === 'incremental' && row.startOffset === 0 && row.listingOrder !== 'oldest_first') {
    const planned = planIncremental(lastCompleteSyncRun(ctx.db), ctx.skewMarginMs);
    if (planned.kind === 'head') return planned;
  }
  return { kind: 'full', startOffset: 0, reason: 'resumed' };
}

/** The run row to work on and where to start reading. */
export function openSyncRun(
  ctx: RunOpenContext,
  request: SyncRequest,
  now: number,
): { row: SyncRunRow; plan: SyncPlan } {
  const { db, logger } = ctx;
  markStaleRunsInterrupted(db, now);
  const latest = latestSyncRun(db);
  if (request.mode === 'incremental' && latest && RESUMABLE_STATUSES.has(latest.status)) {
    const row = reopenSyncRun(db, latest.id);
    const plan = resumePlan(ctx, row);
    logger.info(
      { runId: row.id, from: row.nextOffset, previousStatus: latest.status },
      'resuming an unfinished sync',
    );
    return { row, plan };
  }
  const plan: SyncPlan =
    request.mode === 'full'
      ? { kind: 'full', startOffset: 0, reason: 'full sync requested' }
      : planIncremental(lastCompleteSyncRun(db), ctx.skewMarginMs);
  const row = insertSyncRun(
    db,
    {
      mode: request.mode,
      trigger: request.trigger,
      startOffset: plan.startOffset,
      pageLimit: ctx.pageLimit,
    },
    now,
  );
  logger.info({ runId: row.id, plan }, 'sync started');
  return { row, plan };
}
