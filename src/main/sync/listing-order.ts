/**
 * Incremental sync: which part of the provider's listing must be read again.
 *
 * The interface (section 4.3) gives offset/limit paging and a total `count`, but does not say in
 * which order the listing comes. The sandbox lists oldest first; the real provider may not. So
 * the order is never assumed: every run reads it from the dates of the rows it gets (within
 * each page, dates either never go back in time or never go forward; a page that goes both
 * ways makes the order unknown), stores it with the run, and the next incremental run plans
 * from the LAST COMPLETE run:
 *
 * 1. No complete run yet, or its order was not clear (all rows in one second, dates that go
 *    both ways): a FULL read. Unsure means full.
 * 2. Oldest first: rows already listed keep their offsets and new rows come at the end. Read
 *    from F - 5, where F is the smaller of the count covered by the last complete run and the
 *    lowest offset at which that run still saw a pending row (a pending row may have settled
 *    since, and the listing is the only place that says so). The five rows before F must all be
 *    known already, with the count not smaller than before, and the dates must still go
 *    forward; otherwise the assumption broke and the run restarts from offset 0 as a full read.
 * 3. Newest first: new rows come at offset 0 and push the rest back, so read from 0 and stop
 *    once a whole page is already known (shown by an earlier listing with the same status and
 *    amount) AND every row on it is dated before the watermark: the start of the last complete
 *    run minus a clock-skew margin (10 minutes), or the date of the oldest row that run still
 *    saw pending, whichever is earlier. Shifting pages only repeat rows (deduplicated by
 *    session_id), never skip them. If no such page comes, the run simply reads to the end.
 *
 * A run that failed, was cancelled or was interrupted is resumed from its saved next_offset by
 * the next incremental request (not by a full one, which starts over from 0).
 */
import type { TransactionRecord } from '#main/provider/schemas';
import type { ListingOrder, SyncRunRow } from '#main/store/sync-runs-repo';

/** What a run's pages have shown so far about the order. */
export type OrderEvidence = 'none' | 'oldest_first' | 'newest_first' | 'mixed';

/** Rows the tail read starts before the covered count, to check they are already known. */
export const TAIL_OVERLAP_ROWS = 5;
/** How far the provider's clock may be from ours when comparing its dates to our run times. */
export const DEFAULT_SKEW_MARGIN_MS = 10 * 60_000;

/**
 * Folds the dates of one page (in listing order) into the evidence so far. `previousMs`, when
 * given, is the date of the row before the page's first.
 */
export function foldOrderEvidence(
  evidence: OrderEvidence,
  rows: readonly Pick<TransactionRecord, 'dateMs'>[],
  previousMs: number | null,
): OrderEvidence {
  let result = evidence;
  let last = previousMs;
  for (const row of rows) {
    if (last !== null && row.dateMs !== last) {
      const step: OrderEvidence = row.dateMs > last ? 'oldest_first' : 'newest_first';
      if (result === 'none') result = step;
      else if (result !== step) result = 'mixed';
    }
    last = row.dateMs;
  }
  return result;
}

/** The order to store with a run: its own evidence, else what was known before. */
export function orderFromEvidence(
  evidence: OrderEvidence,
  previous: ListingOrder | null,
): ListingOrder | null {
  if (evidence === 'mixed') return 'unknown';
  if (evidence === 'none') return previous;
  return evidence;
}

export type SyncPlan =
  | { readonly kind: 'full'; readonly startOffset: 0; readonly reason: string }
  | {
      readonly kind: 'tail';
      readonly startOffset: number;
      /** Rows at offsets below this were covered by the last complete run. */
      readonly coveredCount: number;
      readonly order: 'oldest_first';
    }
  | {
      readonly kind: 'head';
      readonly startOffset: 0;
      /** A page of known rows all dated before this ends the run. */
      readonly watermarkMs: number;
      readonly order: 'newest_first';
    };

/** The plan of an incremental run, from the last complete run (see the rule above). */
export function planIncremental(
  lastComplete: SyncRunRow | undefined,
  skewMarginMs: number = DEFAULT_SKEW_MARGIN_MS,
): SyncPlan {
  if (!lastComplete) return { kind: 'full', startOffset: 0, reason: 'no complete sync yet' };
  const order = lastComplete.listingOrder;
  if (order === 'oldest_first') {
    const covered = lastComplete.reportedCount ?? 0;
    const floor = Math.min(covered, lastComplete.pendingOffset ?? covered);
    return {
      kind: 'tail',
      startOffset: Math.max(0, floor - TAIL_OVERLAP_ROWS),
      coveredCount: covered,
      order,
    };
  }
  if (order === 'newest_first') {
    const watermarkMs = Math.min(
      lastComplete.startedAt - skewMarginMs,
      lastComplete.pendingSince ?? Number.POSITIVE_INFINITY,
    );
    return { kind: 'head', startOffset: 0, watermarkMs, order };
  }
  return {
    kind: 'full',
    startOffset: 0,
    reason: 'the order of the provider listing is not known',
  };
}

/** Newest first: a page with no news and nothing near the watermark ends the run. */
export function pageEndsHeadRead(
  rows: readonly Pick<TransactionRecord, 'dateMs'>[],
  allKnown: boolean,
  watermarkMs: number,
): boolean {
  return allKnown && rows.length > 0 && rows.every((row) => row.dateMs < watermarkMs);
}
