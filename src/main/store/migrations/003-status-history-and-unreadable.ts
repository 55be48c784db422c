import type { Migration } from '../migrate';

/**
 * What "status changes after the fact" and "unreadable rows set aside" need beyond 002:
 * - inflows remembers when the provider said the stored status (`status_observed_at`), so an
 *   older observation that arrives late (a listing page fetched before a status check) never
 *   overrides a newer one. Rows from before this migration count as observed when last
 *   updated: their status was known then at the latest;
 * - inflow_status_history keeps every change of a stored status (failed -> success, a success
 *   reversed...), with when it was observed and by which source;
 * - unreadable_listing_rows keeps the listing rows the client could not read, raw (listing rows
 *   carry no secrets), keyed by a fingerprint of that text, until a complete full sync no
 *   longer sees them (the provider now serves them readable, so that sync took them in);
 * - sync_runs counts the unreadable rows each run met;
 * - callback_log gets a partial index for the report's unreadable callbacks of the day: bodies
 *   that were neither JSON nor a form, and readable ones with no reference or session id in
 *   them (nothing in them can be tied to a payment).
 */
export const m003StatusHistoryAndUnreadable: Migration = {
  version: 3,
  name: '003-status-history-and-unreadable',
  up(db) {
    db.exec(`
      ALTER TABLE inflows ADD COLUMN status_observed_at INTEGER NOT NULL DEFAULT 0;
      UPDATE inflows SET status_observed_at = updated_at;

      CREATE TABLE inflow_status_history (
        id INTEGER PRIMARY KEY,
        inflow_id INTEGER NOT NULL REFERENCES inflows (id),
        recorded_at INTEGER NOT NULL,
        observed_at INTEGER NOT NULL,
        from_status TEXT NOT NULL CHECK (from_status IN ('success', 'failed', 'pending', 'unknown')),
        to_status TEXT NOT NULL CHECK (to_status IN ('success', 'failed', 'pending', 'unknown')),
        source TEXT NOT NULL CHECK (source IN ('callback', 'poll', 'listing'))
      ) STRICT;
      CREATE INDEX inflow_status_history_inflow ON inflow_status_history (inflow_id, id);

      CREATE TABLE unreadable_listing_rows (
        id INTEGER PRIMARY KEY,
        fingerprint TEXT NOT NULL UNIQUE,
        raw TEXT NOT NULL CHECK (length(raw) <= 4096),
        problem TEXT NOT NULL,
        position INTEGER NOT NULL,
        first_seen_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        first_run_id INTEGER NOT NULL REFERENCES sync_runs (id),
        last_run_id INTEGER NOT NULL REFERENCES sync_runs (id),
        resolved_at INTEGER,
        resolved_run_id INTEGER REFERENCES sync_runs (id)
      ) STRICT;
      CREATE INDEX unreadable_listing_rows_open
        ON unreadable_listing_rows (problem, first_seen_at) WHERE resolved_at IS NULL;

      ALTER TABLE sync_runs ADD COLUMN unreadable INTEGER NOT NULL DEFAULT 0;

      CREATE INDEX callback_log_unreadable ON callback_log (received_at)
        WHERE parse_status = 'malformed'
          OR (parse_status = 'ok' AND hint_reference IS NULL AND hint_session_id IS NULL);
    `);
  },
};
