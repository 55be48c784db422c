/**
 * One run's read of the provider's listing: the passes over its pages (with read-ahead), the
 * order evidence gathered on the way, what each page writes (listing-page.ts) and when the read
 * ends: complete, stopped by the listing, or a tail read whose oldest-first assumption failed
 * (the run then restarts as a full read). sync.ts opens, resumes and finishes the run around it.
 */
import type { SyncProgressView } from '#shared/views';
import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import type { ProviderClient } from '#main/provider/client';
import { iterateTransactionPages, type PaginationStopReason } from '#main/provider/pagination';
import type { Db } from '#main/store/database';
import type { ListingOrder, SyncRunRow } from '#main/store/sync-runs-repo';
import { openUnreadablePositions } from '#main/store/unreadable-repo';
import {
  foldOrderEvidence,
  orderFromEvidence,
  pageEndsHeadRead,
  type OrderEvidence,
  type SyncPlan,
} from './listing-order';
import { applyListingPage, isFinalStatus, type ListedRowNotice } from './listing-page';
import { createReadAhead } from './read-ahead';

/** What a read of the listing needs from the sync that runs it. */
export interface ListingReadContext {
  readonly db: Db;
  readonly client: () => ProviderClient;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly pageLimit: number;
  readonly readAheadDepth: number;
  /** After each page: how far the run has read (must not throw). */
  progress(progress: SyncProgressView): void;
  /** A listed row the engine must hear about, after its page is committed (must not throw). */
  notify(notice: ListedRowNotice): void;
}

/** How a run ended, before it is written down. */
export type Ending =
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

export async function readListing(
  context: ListingReadContext,
  row: SyncRunRow,
  plan: SyncPlan,
  startOffset: number,
  signal: AbortSignal,
): Promise<Ending> {
  const { db, scheduler, logger } = context;
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
    const client = createReadAhead(context.client(), {
      depth: context.readAheadDepth,
      signal,
      now: () => scheduler.now(),
    });
    let previousMs: number | null = null;
    try {
      for await (const page of iterateTransactionPages(client, {
        limit: context.pageLimit,
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
          if (saveOffset) pendingOffset = pendingOffset === null ? at : Math.min(pendingOffset, at);
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
            providerPageSize: cappedPageSize(page, context.pageLimit),
          },
          scheduler.now(),
        );
        context.progress({
          runId: row.id,
          collected: Math.min(startOffset + seen.size, page.count),
          count: page.count,
        });
        for (const notice of result.notify) context.notify(notice);

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
    return `the provider now lists ${count} transactions, fewer than the ${plan.coveredCount} already read`;
  }
  if (unlistedAt !== null && unlistedAt < plan.coveredCount) {
    return `a transaction at offset ${unlistedAt}, already read before, was never seen`;
  }
  return null;
}
