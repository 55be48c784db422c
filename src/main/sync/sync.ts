/**
 * The transaction sync: pulls the provider's listing (section 4.3) into the inflows table, one
 * short transaction per page, on demand, at start-up and on a schedule. One run at a time; a
 * run can be cancelled, and a run that failed, was cancelled or died with the process is
 * resumed from its saved offset by the next incremental request. Which part of the listing an
 * incremental run reads is decided in listing-order.ts (the rule is written there).
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
import type { Scheduler } from '#main/engine/scheduler';
import type { Logger } from '#main/logging/logger';
import type { ProviderClient } from '#main/provider/client';
import { isProviderError } from '#main/provider/errors';
import { iterateTransactionPages, type PaginationStopReason } from '#main/provider/pagination';
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
  type ListingOrder,
  type SyncMode,
  type SyncRunRow,
} from '#main/store/sync-runs-repo';
import { openUnreadablePositions, resolveUnseenUnreadableRows } from '#main/store/unreadable-repo';
import {
  DEFAULT_SKEW_MARGIN_MS,
  foldOrderEvidence,
  orderFromEvidence,
  pageEndsHeadRead,
  planIncremental,
  type OrderEvidence,
  type SyncPlan,
} from './listing-order';
import {
  applyListingPage,
  isFinalStatus,
  type ListedRowChange,
  type ListedRowNotice,
} from './listing-page';
import { createReadAhead } from './read-ahead';
import { RESUMABLE_STATUSES, toSyncRunView } from './sync-runs';

export const DEFAULT_PAGE_LIMIT = 100;
/** Pages requested ahead of the one being written. */
export const DEFAULT_READ_AHEAD = 2;

export class SyncError extends Error {
  constructor(
    readonly code: 'INVALID_OPTION',
    message: string,
  ) {
    super(message);
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

/** How a run ended, before it is written down. */
type Ending =
  | {
      readonly kind: 'complete';
      readonly order: ListingOrder | null;
      /**
       * The run read every row from this offset to the end of a listing whose rows keep their
       * offsets (a full read, or a tail read oldest first); null for a head read.
       */
      readonly coveredFrom: number | null;
    }
  | { readonly kind: 'stopped'; readonly reason: PaginationStopReason; readonly count: number }
  | { readonly kind: 'restart'; readonly why: string };

function evidenceFrom(order: ListingOrder | null): OrderEvidence {
  if (order === null) return 'none';
  return order === 'unknown' ? 'mixed' : order;
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
      { mode: request.mode, trigger: request.trigger, startOffset: plan.startOffset },
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

  async function readPages(
    row: SyncRunRow,
    plan: SyncPlan,
    startOffset: number,
    signal: AbortSignal,
  ): Promise<Ending> {
    let evidence: OrderEvidence = evidenceFrom(row.listingOrder);
    let pendingOffset = row.pendingOffset;
    let pendingSince = row.pendingSince;
    let count = row.reportedCount ?? 0;
    /**
     * Session ids (and, for unreadable rows, ' ' + raw text) this run has read, across passes,
     * so that `collected` counts each row once.
     */
    const seen = new Set<string>();
    /**
     * A tail read expects every row before the covered count to be known, but a row the
     * listing served unreadable before is new to the store once readable: that is no break.
     */
    const wasUnreadable = plan.kind === 'tail' ? openUnreadablePositions(db) : new Set<number>();

    type PassEnd = PaginationStopReason | 'head_stop' | { restart: string };
    /**
     * One pass over the listing from `from`. `headWatermarkMs` (newest first) ends the pass at
     * the first page with no news dated wholly before it; the catch-up pass does not move the
     * saved resume offset.
     */
    async function pass(
      from: number,
      headWatermarkMs: number | null,
      saveOffset: boolean,
    ): Promise<PassEnd> {
      const client = createReadAhead(deps.client(), {
        depth: readAheadDepth,
        signal,
        now: () => scheduler.now(),
      });
      let previousMs: number | null = null;
      try {
        for await (const page of iterateTransactionPages(client, {
          limit: pageLimit,
          startOffset: from,
          signal,
        })) {
          // Within a page (one answer, one snapshot), and from the end of the page before to the
          // first row not seen yet: rows may shift between pages (newest first, new rows push
          // the others back and the next page repeats a few), so a repeated row says nothing.
          evidence = foldOrderEvidence(evidence, page.rows, null);
          const firstNew = page.newRows[0];
          if (firstNew) evidence = foldOrderEvidence(evidence, [firstNew], previousMs);
          previousMs = page.rows.at(-1)?.dateMs ?? previousMs;
          count = page.count;
          page.rows.forEach((tx, index) => {
            if (isFinalStatus(tx.status)) return;
            const at = page.positions[index] ?? page.offset + index;
            if (saveOffset)
              pendingOffset = pendingOffset === null ? at : Math.min(pendingOffset, at);
            pendingSince = pendingSince === null ? tx.dateMs : Math.min(pendingSince, tx.dateMs);
          });
          // An unreadable row is not settled either: the next tail read starts at it again, so
          // that it is taken in once the provider serves it readable.
          for (const bad of page.unreadable) {
            if (saveOffset) {
              pendingOffset =
                pendingOffset === null ? bad.position : Math.min(pendingOffset, bad.position);
            }
          }
          const freshRows = page.newRows.filter((tx) => !seen.has(tx.sessionId));
          for (const tx of freshRows) seen.add(tx.sessionId);
          const freshUnreadable = page.newUnreadable.filter((bad) => !seen.has(` ${bad.raw}`));
          for (const bad of freshUnreadable) seen.add(` ${bad.raw}`);
          if (page.unreadable.length > 0) {
            logger.warn(
              {
                runId: row.id,
                offset: page.offset,
                unreadable: page.unreadable.length,
                problems: [...new Set(page.unreadable.map((bad) => bad.problem))],
              },
              'listing rows could not be read; kept and skipped',
            );
          }
          const result = applyListingPage(
            db,
            {
              rows: page.newRows,
              unreadable: page.newUnreadable,
              observedAt: page.requestedAt ?? scheduler.now(),
            },
            {
              runId: row.id,
              nextOffset: saveOffset ? page.offset + page.returned : null,
              reportedCount: page.count,
              collectedDelta: freshRows.length + freshUnreadable.length,
              unreadableDelta: freshUnreadable.length,
              pendingOffset,
              pendingSince,
              listingOrder: orderFromEvidence(evidence, null),
            },
            scheduler.now(),
          );
          emit(() =>
            events.progress({
              runId: row.id,
              collected: Math.min(startOffset + seen.size, page.count),
              count: page.count,
            }),
          );
          for (const notice of result.notify) notifyEngine(notice);

          if (plan.kind === 'tail') {
            if (evidence === 'newest_first' || evidence === 'mixed') {
              return { restart: 'the listing no longer comes oldest first' };
            }
            const unlistedAt =
              result.unlistedIndexes
                .map((index) => page.positions[index] ?? page.offset + index)
                .find((position) => !wasUnreadable.has(position)) ?? null;
            const broken = tailBroken(plan, page.count, unlistedAt);
            if (broken) return { restart: broken };
          }
          if (
            headWatermarkMs !== null &&
            (evidence === 'newest_first' || evidence === 'none') &&
            pageEndsHeadRead(page.rows, result.allKnown, headWatermarkMs)
          ) {
            return 'head_stop';
          }
          if (page.stopReason !== null) return page.stopReason;
        }
        return 'empty_page';
      } finally {
        client.close();
      }
    }

    const inherited = plan.kind === 'full' ? row.listingOrder : plan.order;
    // A resumed run read the part before its saved offset earlier, under the same run id. A
    // head read stops early on a listing whose offsets shift: it covers nothing for sure.
    const coveredFrom = plan.kind === 'head' ? null : row.startOffset;
    const end = await pass(startOffset, plan.kind === 'head' ? plan.watermarkMs : null, true);
    if (typeof end === 'object') return { kind: 'restart', why: end.restart };
    if (end === 'complete' || end === 'head_stop') {
      return { kind: 'complete', order: orderFromEvidence(evidence, inherited), coveredFrom };
    }
    if ((end === 'empty_page' || end === 'no_progress') && evidence === 'newest_first') {
      // Newest first, rows that arrived during the run went to the front, before the offsets
      // already read, so the tail never reaches `count`. Read the front again up to the first
      // page with no news: everything behind it was read by this run.
      logger.info({ runId: row.id }, 'reading the front of a newest-first listing again');
      const again = await pass(0, Number.POSITIVE_INFINITY, false);
      if (again === 'head_stop' || startOffset + seen.size >= count) {
        return { kind: 'complete', order: orderFromEvidence(evidence, inherited), coveredFrom };
      }
    }
    return { kind: 'stopped', reason: end, count };
  }

  /**
   * Why the oldest-first assumption failed on a page of a tail read, or null. `unlistedAt` is
   * the listing offset of the page's first row no earlier listing had shown.
   */
  function tailBroken(
    plan: Extract<SyncPlan, { kind: 'tail' }>,
    count: number,
    unlistedAt: number | null,
  ): string | null {
    if (count < plan.coveredCount) {
      return `the provider now lists ${count} transactions, fewer than the ${plan.coveredCount} already read`;
    }
    if (unlistedAt !== null && unlistedAt < plan.coveredCount) {
      return `a transaction at offset ${unlistedAt}, already read before, was never seen`;
    }
    return null;
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
        const ending = await readPages(current, currentPlan, current.nextOffset, signal);
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
