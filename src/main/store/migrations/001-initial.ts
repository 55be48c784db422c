import type { Migration } from '../migrate';

/**
 * The first schema. One database per provider environment (sandbox, staging, production), so
 * training sales can never reach a live report. Money is integer kobo; times are epoch ms.
 * Shipped migrations are never edited: change the schema with a new numbered migration.
 */
export const m001Initial: Migration = {
  version: 1,
  name: '001-initial',
  up(db) {
    db.exec(`
      CREATE TABLE virtual_accounts (
        id INTEGER PRIMARY KEY,
        type TEXT NOT NULL CHECK (type IN ('nonstatic', 'static', 'static-flex')),
        purpose TEXT NOT NULL CHECK (purpose IN ('sale', 'counter')),
        reference TEXT NOT NULL UNIQUE,
        provider_reference TEXT,
        account_number TEXT,
        account_name TEXT,
        bank TEXT,
        amount_kobo INTEGER CHECK (amount_kobo IS NULL OR amount_kobo > 0),
        expiry_minutes INTEGER,
        expires_at INTEGER,
        callback_url TEXT,
        status TEXT NOT NULL
          CHECK (status IN ('creating', 'active', 'failed_to_create', 'expired', 'cancelled', 'retired')),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX virtual_accounts_number ON virtual_accounts (account_number);

      CREATE TABLE sales (
        id INTEGER PRIMARY KEY,
        amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
        note TEXT,
        cashier TEXT,
        till_id TEXT,
        state TEXT NOT NULL CHECK (state IN ('creating', 'failed_to_create', 'awaiting_payment',
          'confirming', 'paid', 'wrong_amount', 'expired', 'cancelled', 'paid_late')),
        reason TEXT,
        reference TEXT NOT NULL UNIQUE,
        account_id INTEGER REFERENCES virtual_accounts (id),
        expires_at INTEGER,
        paid_session_id TEXT,
        paid_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX sales_open ON sales (state)
        WHERE state IN ('creating', 'awaiting_payment', 'confirming', 'wrong_amount');
      CREATE INDEX sales_created ON sales (created_at);

      CREATE TABLE sale_events (
        id INTEGER PRIMARY KEY,
        sale_id INTEGER NOT NULL REFERENCES sales (id),
        at INTEGER NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        cause TEXT NOT NULL,
        detail TEXT
      ) STRICT;
      CREATE INDEX sale_events_sale ON sale_events (sale_id, id);

      CREATE TABLE inflows (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL UNIQUE,
        external_reference TEXT,
        amount_kobo INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('success', 'failed', 'pending', 'unknown')),
        provider_date TEXT,
        occurred_at INTEGER,
        source TEXT NOT NULL CHECK (source IN ('callback', 'poll', 'listing')),
        last_source TEXT NOT NULL CHECK (last_source IN ('callback', 'poll', 'listing')),
        sale_id INTEGER REFERENCES sales (id),
        account_id INTEGER REFERENCES virtual_accounts (id),
        first_seen_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX inflows_day ON inflows (occurred_at, status, amount_kobo);
      CREATE INDEX inflows_reference ON inflows (external_reference);
      CREATE INDEX inflows_sale ON inflows (sale_id);

      CREATE TABLE callback_log (
        id INTEGER PRIMARY KEY,
        received_at INTEGER NOT NULL,
        remote_address TEXT,
        method TEXT NOT NULL,
        content_type TEXT,
        headers TEXT NOT NULL,
        body TEXT NOT NULL,
        parse_status TEXT NOT NULL,
        hint_reference TEXT,
        hint_session_id TEXT,
        hint_amount_kobo INTEGER,
        hint_status TEXT,
        processed_at INTEGER,
        outcome TEXT
      ) STRICT;
      CREATE INDEX callback_log_unprocessed ON callback_log (id) WHERE processed_at IS NULL;

      CREATE TABLE sync_runs (
        id INTEGER PRIMARY KEY,
        mode TEXT NOT NULL CHECK (mode IN ('full', 'incremental')),
        trigger TEXT NOT NULL,
        status TEXT NOT NULL
          CHECK (status IN ('running', 'complete', 'failed', 'cancelled', 'interrupted')),
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        reported_count INTEGER,
        collected INTEGER NOT NULL DEFAULT 0,
        inserted INTEGER NOT NULL DEFAULT 0,
        updated INTEGER NOT NULL DEFAULT 0,
        next_offset INTEGER NOT NULL DEFAULT 0,
        error TEXT
      ) STRICT;

      CREATE TABLE alerts (
        id INTEGER PRIMARY KEY,
        created_at INTEGER NOT NULL,
        level TEXT NOT NULL CHECK (level IN ('info', 'warning', 'error')),
        kind TEXT NOT NULL,
        sale_id INTEGER REFERENCES sales (id),
        session_id TEXT,
        message TEXT NOT NULL,
        dedupe_key TEXT UNIQUE,
        acknowledged_at INTEGER
      ) STRICT;
      CREATE INDEX alerts_open ON alerts (created_at) WHERE acknowledged_at IS NULL;
    `);
  },
};
