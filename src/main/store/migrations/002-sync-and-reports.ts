import type { Migration } from '../migrate';

/**
 * What the transaction sync and the end-of-day report need beyond 001:
 * - sync_runs remembers where a run started, the order the provider lists in (detected from
 *   the dates it returned), and the lowest listing offset / oldest date of a row that was still
 *   pending, so an incremental run knows where it must start reading again;
 * - inflows remembers when and with which status the provider's listing last showed the row
 *   (`last_source` is overwritten by later callbacks, so it cannot answer "did the listing ever
 *   show this payment?", which the report's missing-from-provider check needs);
 * - sales gets an index on paid_at for the report's by-till totals and exceptions.
 */
export const m002SyncAndReports: Migration = {
  version: 2,
  name: '002-sync-and-reports',
  up(db) {
    db.exec(`
      ALTER TABLE sync_runs ADD COLUMN start_offset INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sync_runs ADD COLUMN listing_order TEXT
        CHECK (listing_order IS NULL OR listing_order IN ('oldest_first', 'newest_first', 'unknown'));
      ALTER TABLE sync_runs ADD COLUMN pending_offset INTEGER;
      ALTER TABLE sync_runs ADD COLUMN pending_since INTEGER;
      CREATE INDEX sync_runs_status ON sync_runs (status, id);

      ALTER TABLE inflows ADD COLUMN listed_at INTEGER;
      ALTER TABLE inflows ADD COLUMN listed_status TEXT
        CHECK (listed_status IS NULL OR listed_status IN ('success', 'failed', 'pending', 'unknown'));

      CREATE INDEX sales_paid ON sales (paid_at) WHERE paid_at IS NOT NULL;
    `);
  },
};
