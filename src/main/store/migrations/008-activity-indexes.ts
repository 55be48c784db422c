import type { Migration } from '../migrate';

/**
 * The Activity screen's reads, which every till page and every paired counter make on each
 * refresh, without walking a whole table (a ten-year shop holds 3.65 million inflows and as many
 * virtual accounts, one per sale):
 * - the day's inflows, newest first: by first_seen_at, then a sort of the day's few rows;
 * - the open alerts, newest first: a partial index of the open ones, in id order;
 * - the active standing accounts: a partial index of those few rows.
 */
export const m008ActivityIndexes: Migration = {
  version: 8,
  name: '008-activity-indexes',
  up(db) {
    db.exec(`
      CREATE INDEX inflows_first_seen ON inflows (first_seen_at);
      CREATE INDEX alerts_open_id ON alerts (id) WHERE acknowledged_at IS NULL;
      CREATE INDEX virtual_accounts_counter_active ON virtual_accounts (id)
        WHERE purpose = 'counter' AND status = 'active';
    `);
  },
};
