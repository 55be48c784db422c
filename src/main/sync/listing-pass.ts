/**
 * One pass over the provider's listing within a run's read (listing-read.ts): page by page with
 * read-ahead, folding the order evidence, noting the rows that are not settled, writing each
 * page (listing-page.ts) and deciding whether the pass ends early (a head read that met no
 * news, a tail read whose oldest-first assumption failed). The read's state is passed in and
 * updated in place, so a second pass carries on from the first.
 */
import type { PaginationStopReason, TransactionPageInfo } from '#main/provider/pagination';
import { countOf } from '#shared/plural';
import { iterateTransactionPages } from '#main/provider/pagination';
import type { SyncRunRow } from '#main/store/sync-runs-repo';
import {
  foldOrderEvidence,
  orderFromEvidence,
  pageEndsHeadRead,
  type OrderEvidence,
  type SyncPlan,
} from './listing-order';
import { applyListingPage, isFinalStatus, type PageResult } from './listing-page';
import type { ListingReadContext } from './listing-read';
import { createReadAhead } from './read-ahead';

/** What a run's read has gathered so far, across its passes. */
export interface ReadState {
  evidence: OrderEvidence;
  pendingOffset: number | null;
  pendingSince: number | null;
  count: number;
  /**
   * Session ids (and, for unreadable rows, ' ' + raw text) this run has read, across passes,
   * so that `collected` counts each row once.
   */
  readonly seen: Set<string>;
  /**
   * A tail read expects every row before the covered count to be known, but a row the
   * listing served unreadable before is new to the store once readable: that is no break.
   */
  readonly wasUnreadable: ReadonlySet<number>;
}

/** The run a pass reads for. */
export interface PassRun {
  readonly row: SyncRunRow;
  readonly plan: SyncPlan;
  readonly startOffset: number;
  readonly signal: AbortSignal;
}

/**
 * Where a pass starts; `headWatermarkMs` (newest first) ends it at the first page with no news
 * dated wholly before it; a catch-up pass does not move the saved resume offset.
 */
export interface PassBounds {
  readonly from: number;
  readonly headWatermarkMs: number | null;
  readonly saveOffset: boolean;
}

export type PassEnd = PaginationStopReason | 'head_stop' | { readonly restart: string };

/** Folds one page into the order evidence. */
function foldPageOrder(state: ReadState, page: TransactionPageInfo, previousMs: number | null) {
  // Within a page (one answer, one snapshot), and from the end of the page before to the
  // first row not seen yet: rows may shift between pages (newest first, new rows push
  // the others back and the next page repeats a few), so a repeated row says nothing.
  state.evidence = foldOrderEvidence(state.evidence, page.rows, null);
  const firstNew = page.newRows[0];
  if (firstNew) state.evidence = foldOrderEvidence(state.evidence, [firstNew], previousMs);
}

/** Notes where the page's unsettled rows are, so the next tail read starts at them again. */
function notePending(state: ReadState, page: TransactionPageInfo, saveOffset: boolean): void {
  const lowest = (at: number): void => {
    if (saveOffset) {
      state.pendingOffset = state.pendingOffset === null ? at : Math.min(state.pendingOffset, at);
    }
  };
  page.rows.forEach((tx, index) => {
    if (isFinalStatus(tx.status)) return;
    lowest(page.positions[index] ?? page.offset + index);
    state.pendingSince =
      state.pendingSince === null ? tx.dateMs : Math.min(state.pendingSince, tx.dateMs);
  });
  // An unreadable row is not settled either: the next tail read starts at it again, so
  // that it is taken in once the provider serves it readable.
  for (const bad of page.unreadable) lowest(bad.position);
}

/** The page's rows this run had not read yet (each counted once). */
function takeFresh(state: ReadState, page: TransactionPageInfo) {
  const rows = page.newRows.filter((tx) => !state.seen.has(tx.sessionId));
  for (const tx of rows) state.seen.add(tx.sessionId);
  const unreadable = page.newUnreadable.filter((bad) => !state.seen.has(` ${bad.raw}`));
  for (const bad of unreadable) state.seen.add(` ${bad.raw}`);
  return { rows: rows.length, unreadable: unreadable.length };
}

/** Writes one page with the run's progress, then tells the sync what it needs to know. */
function writePage(
  context: ListingReadContext,
  state: ReadState,
  run: PassRun,
  page: TransactionPageInfo,
  saveOffset: boolean,
): PageResult {
  const { row } = run;
  const fresh = takeFresh(state, page);
  if (page.unreadable.length > 0) {
    context.logger.warn(
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
    context.db,
    {
      rows: page.newRows,
      unreadable: page.newUnreadable,
      observedAt: page.requestedAt ?? context.scheduler.now(),
    },
    {
      runId: row.id,
      nextOffset: saveOffset ? page.offset + page.returned : null,
      reportedCount: page.count,
      collectedDelta: fresh.rows + fresh.unreadable,
      unreadableDelta: fresh.unreadable,
      pendingOffset: state.pendingOffset,
      pendingSince: state.pendingSince,
      listingOrder: orderFromEvidence(state.evidence, null),
      providerPageSize: cappedPageSize(page, context.pageLimit),
    },
    context.scheduler.now(),
  );
  context.progress({
    runId: row.id,
    collected: Math.min(run.startOffset + state.seen.size, page.count),
    count: page.count,
  });
  for (const notice of result.notify) context.notify(notice);
  return result;
}

/** Whether the pass ends after this page, and how; null reads on. */
function pageEnd(
  state: ReadState,
  plan: SyncPlan,
  page: TransactionPageInfo,
  result: PageResult,
  headWatermarkMs: number | null,
): PassEnd | null {
  if (plan.kind === 'tail') {
    if (state.evidence === 'newest_first' || state.evidence === 'mixed') {
      return { restart: 'the listing no longer comes oldest first' };
    }
    const unlistedAt =
      result.unlistedIndexes
        .map((index) => page.positions[index] ?? page.offset + index)
        .find((position) => !state.wasUnreadable.has(position)) ?? null;
    const broken = tailBroken(plan, page.count, unlistedAt);
    if (broken) return { restart: broken };
  }
  if (
    headWatermarkMs !== null &&
    (state.evidence === 'newest_first' || state.evidence === 'none') &&
    pageEndsHeadRead(page.rows, result.allKnown, headWatermarkMs)
  ) {
    return 'head_stop';
  }
  return page.stopReason;
}

/** One pass over the listing from `bounds.from`. */
export async function readPass(
  context: ListingReadContext,
  state: ReadState,
  run: PassRun,
  bounds: PassBounds,
): Promise<PassEnd> {
  const client = createReadAhead(context.client(), {
    depth: context.readAheadDepth,
    signal: run.signal,
    now: () => context.scheduler.now(),
  });
  let previousMs: number | null = null;
  try {
    for await (const page of iterateTransactionPages(client, {
      limit: context.pageLimit,
      startOffset: bounds.from,
      signal: run.signal,
    })) {
      foldPageOrder(state, page, previousMs);
      previousMs = page.rows.at(-1)?.dateMs ?? previousMs;
      state.count = page.count;
      notePending(state, page, bounds.saveOffset);
      const result = writePage(context, state, run, page, bounds.saveOffset);
      const end = pageEnd(state, run.plan, page, result, bounds.headWatermarkMs);
      if (end !== null) return end;
    }
    return 'empty_page';
  } finally {
    client.close();
  }
}

/**
 * The provider's real page size, when this page shows one: fewer rows than `limit` although
 * more were still to come (the interface does not promise that `limit` is honoured).
 */
export function cappedPageSize(
  page: { readonly returned: number; readonly stopReason: unknown },
  limit: number,
): number | null {
  return page.stopReason === null && page.returned > 0 && page.returned < limit
    ? page.returned
    : null;
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
    return `the provider now lists ${countOf(count, 'transaction')}, fewer than the ${plan.coveredCount} already read`;
  }
  if (unlistedAt !== null && unlistedAt < plan.coveredCount) {
    return `a transaction at offset ${unlistedAt}, already read before, was never seen`;
  }
  return null;
}
