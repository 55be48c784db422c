import type { Migration } from '../migrate';

/**
 * The shop hub's counters: devices paired over the shop's network, each with its own till id
 * and its own token. The token itself is never stored, only its SHA-256 (hex): a copy of this
 * file opens no counter. A revoked counter stays listed (revoked_at) for the record and for the
 * report's names of its past sales; its till id may then be given to a new counter.
 *
 * Two tills of one shop must never share a reference prefix (the till id's letters and digits,
 * upper-cased: src/shared/till-id.ts), so the live counters' prefixes are unique here too. Till
 * ids hold only letters, digits and '-', so the prefix is upper(replace(till_id, '-', '')).
 *
 * A sale a counter made records which one (sales.paired_counter_id): the hub's report counts
 * that money as the counter's, by the reference prefix it was made with, not as the hub's own,
 * even after the counter's till id changes.
 *
 * A counter lists its own till's sales of the day: (till_id, created_at) answers that with one
 * range, where the day's range of sales_created would read every other till's sales too.
 */
export const m007PairedCounters: Migration = {
  version: 7,
  name: '007-paired-counters',
  up(db) {
    db.exec(`
      CREATE TABLE paired_counters (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
        till_id TEXT NOT NULL
          CHECK (length(till_id) BETWEEN 1 AND 16 AND till_id NOT GLOB '*[^A-Za-z0-9-]*'),
        token_sha256 TEXT NOT NULL
          CHECK (length(token_sha256) = 64 AND token_sha256 NOT GLOB '*[^0-9a-f]*'),
        paired_at INTEGER NOT NULL,
        last_contact_at INTEGER,
        revoked_at INTEGER
      ) STRICT;
      CREATE UNIQUE INDEX paired_counters_token ON paired_counters (token_sha256);
      CREATE UNIQUE INDEX paired_counters_live_prefix
        ON paired_counters (upper(replace(till_id, '-', ''))) WHERE revoked_at IS NULL;
      CREATE INDEX sales_till_created ON sales (till_id, created_at);
      ALTER TABLE sales ADD COLUMN paired_counter_id INTEGER REFERENCES paired_counters (id);
    `);
  },
};
