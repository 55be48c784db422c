/**
 * A sync run as the rest of the app sees it (the rows are the store's: store/sync-runs-repo.ts),
 * and which ended runs a later incremental request carries on from their saved offset.
 */
import type { SyncRunView } from '#shared/views';
import type { SyncRunRow, SyncStatus } from '#main/store/sync-runs-repo';

/** Statuses a later run picks up from `next_offset` instead of starting over. */
export const RESUMABLE_STATUSES: ReadonlySet<SyncStatus> = new Set([
  'interrupted',
  'failed',
  'cancelled',
]);

export function toSyncRunView(row: SyncRunRow): SyncRunView {
  return {
    id: row.id,
    mode: row.mode,
    trigger: row.trigger,
    status: row.status,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    reportedCount: row.reportedCount,
    collected: row.collected,
    inserted: row.inserted,
    updated: row.updated,
    unreadable: row.unreadable,
    error: row.error,
    pageLimit: row.pageLimit,
    providerPageSize: row.providerPageSize,
  };
}
