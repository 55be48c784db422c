/**
 * One run's read of the provider's listing: the passes over its pages (each one is
 * listing-pass.ts: read-ahead, order evidence, what each page writes) and when the read ends: complete, stopped by the listing, or a tail read whose oldest-first assumption failed
 * (the run then restarts as a full read). sync.ts opens, resumes and finishes the run around it.
 */
import type { SyncProgressView } from '#shared/views';
import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import type { ProviderClient } from '#main/provider/client';
import type { PaginationStopReason } from '#main/provider/pagination';
import type { Db } from '#main/store/database';
import type { ListingOrder, SyncRunRow } from '#main/store/sync-runs-repo';
import { openUnreadablePositions } from '#main/store/unreadable-repo';
import { orderFromEvidence, type OrderEvidence, type SyncPlan } from './listing-order';
import type { ListedRowNotice } from './listing-page';
import { readPass, type PassRun, type ReadState } from './listing-pass';

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
  const state: ReadState = {
    evidence: evidenceFrom(row.listingOrder),
    pendingOffset: row.pendingOffset,
    pendingSince: row.pendingSince,
    count: row.reportedCount ?? 0,
    seen: new Set<string>(),
    wasUnreadable: plan.kind === 'tail' ? openUnreadablePositions(context.db) : new Set<number>(),
  };
  const run: PassRun = { row, plan, startOffset, signal };
  const inherited = plan.kind === 'full' ? row.listingOrder : plan.order;
  // A resumed run read the part before its saved offset earlier, under the same run id. A
  // head read stops early on a listing whose offsets shift: it covers nothing for sure.
  const coveredFrom = plan.kind === 'head' ? null : row.startOffset;
  const complete = (): Ending => ({
    kind: 'complete',
    order: orderFromEvidence(state.evidence, inherited),
    coveredFrom,
  });
  const end = await readPass(context, state, run, {
    from: startOffset,
    headWatermarkMs: plan.kind === 'head' ? plan.watermarkMs : null,
    saveOffset: true,
  });
  if (typeof end === 'object') return { kind: 'restart', why: end.restart };
  if (end === 'complete' || end === 'head_stop') return complete();
  if ((end === 'empty_page' || end === 'no_progress') && state.evidence === 'newest_first') {
    // Newest first, rows that arrived during the run went to the front, before the offsets
    // already read, so the tail never reaches `count`. Read the front again up to the first
    // page with no news: everything behind it was read by this run.
    context.logger.info({ runId: row.id }, 'reading the front of a newest-first listing again');
    const again = await readPass(context, state, run, {
      from: 0,
      headWatermarkMs: Number.POSITIVE_INFINITY,
      saveOffset: false,
    });
    if (again === 'head_stop' || startOffset + state.seen.size >= state.count) return complete();
  }
  return { kind: 'stopped', reason: end, count: state.count };
}
