import Database from 'better-sqlite3';
import { AppError } from '#shared/errors';
import { prepareDatabaseFile } from '#main/config/private-files';

export type SandboxDb = Database.Database;

/**
 * The sandbox's own schema, independent of the app's store. Numbered steps, version kept in
 * PRAGMA user_version; a shipped step is never edited, a new one is appended. Money is kobo.
 */
export const SANDBOX_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE merchant (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret_key TEXT NOT NULL,
    access_token TEXT NOT NULL,
    payout_account_id TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    owner_name TEXT NOT NULL
  ) STRICT;

  CREATE TABLE payout_balances (
    balance_type TEXT PRIMARY KEY
      CHECK (balance_type IN ('AvailableBalance', 'SettlementPositionBalance')),
    value_kobo INTEGER NOT NULL
  ) STRICT;
  INSERT INTO payout_balances (balance_type, value_kobo)
    VALUES ('AvailableBalance', 0), ('SettlementPositionBalance', 0);

  CREATE TABLE accounts (
    account_number TEXT PRIMARY KEY,
    reference TEXT NOT NULL UNIQUE,
    external_reference TEXT NOT NULL UNIQUE,
    account_name TEXT NOT NULL,
    merchant_id TEXT NOT NULL,
    merchant_category TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('nonstatic', 'static', 'static-flex')),
    amount_kobo INTEGER CHECK (amount_kobo IS NULL OR amount_kobo > 0),
    expires_at_ms INTEGER,
    status TEXT NOT NULL CHECK (status IN ('active', 'expired', 'cancelled')),
    callback_url TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE transactions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL UNIQUE,
    account_number TEXT NOT NULL REFERENCES accounts (account_number),
    amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
    status TEXT NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
    reason TEXT,
    created_at_ms INTEGER NOT NULL,
    settle_at_ms INTEGER,
    settled_at_ms INTEGER
  ) STRICT;
  CREATE INDEX transactions_by_account ON transactions (account_number, seq);
  CREATE INDEX transactions_pending ON transactions (settle_at_ms) WHERE status = 'pending';

  CREATE TABLE callback_dispatches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES transactions (session_id),
    cause TEXT NOT NULL CHECK (cause IN ('payment', 'duplicate', 'resend')),
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'dropped')),
    created_at_ms INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX callback_dispatches_pending ON callback_dispatches (id) WHERE state = 'pending';

  CREATE TABLE callback_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    dispatch_id INTEGER NOT NULL REFERENCES callback_dispatches (id),
    attempt INTEGER NOT NULL,
    target TEXT NOT NULL CHECK (target IN ('primary', 'fallback')),
    url TEXT NOT NULL,
    http_status INTEGER,
    error TEXT,
    at_ms INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX callback_attempts_by_dispatch ON callback_attempts (dispatch_id, id);

  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;
  `,
  // 2: personalities. A held callback (callbacks "late") waits for due_at_ms on the sandbox's
  // clock; why a dispatch was not sent is kept beside it; served fault counts survive restarts.
  `
  ALTER TABLE callback_dispatches ADD COLUMN due_at_ms INTEGER;
  ALTER TABLE callback_dispatches ADD COLUMN note TEXT;

  CREATE TABLE served_faults (
    kind TEXT PRIMARY KEY,
    count INTEGER NOT NULL CHECK (count >= 0)
  ) STRICT;
  `,
];

export const SANDBOX_SCHEMA_VERSION = SANDBOX_MIGRATIONS.length;

export class SandboxDbError extends AppError<'SANDBOX_DB_TOO_NEW'> {
  constructor(message: string) {
    super('SANDBOX_DB_TOO_NEW', message);
    this.name = 'SandboxDbError';
  }
}

/**
 * Opens (and migrates) the sandbox database: a file when a path is given (owner-only, with its
 * WAL, like the till's), memory otherwise.
 */
export function openSandboxDb(path?: string): SandboxDb {
  const onDisk = path !== undefined && path !== ':memory:';
  if (onDisk) prepareDatabaseFile(path);
  const db = new Database(path ?? ':memory:');
  try {
    if (onDisk) {
      db.pragma('journal_mode = WAL');
      // Ledger rows and balances are the point of a persisted sandbox: make commits durable.
      db.pragma('synchronous = FULL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -2000');
    db.pragma('busy_timeout = 5000');
    db.function('shuffle_key', { deterministic: true }, (sessionId) =>
      shuffleKey(String(sessionId)),
    );
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * FNV-1a of a session id: the `shuffled` listing order. A hash of the row itself (not a random
 * draw per request) keeps the order the same between requests, so paging stays consistent.
 */
export function shuffleKey(sessionId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < sessionId.length; i += 1) {
    hash ^= sessionId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function migrate(db: SandboxDb): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  if (current > SANDBOX_SCHEMA_VERSION) {
    throw new SandboxDbError(
      `sandbox database is at schema version ${current}, newer than this build (${SANDBOX_SCHEMA_VERSION})`,
    );
  }
  if (current === SANDBOX_SCHEMA_VERSION) return;
  db.transaction(() => {
    for (const step of SANDBOX_MIGRATIONS.slice(current)) db.exec(step);
    db.pragma(`user_version = ${SANDBOX_SCHEMA_VERSION}`);
  })();
}
