import Database from 'better-sqlite3';
import { migrate, type Migration } from './migrate';
import { migrations as shippedMigrations } from './migrations';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  /** A file path, or ':memory:' for throwaway databases in tests. */
  readonly path: string;
  /**
   * The better-sqlite3 addon to load. The Electron shell passes the build made for Electron's
   * ABI; Node (tests, browser shell) uses the default build in node_modules.
   */
  readonly nativeBinding?: string | undefined;
  readonly migrations?: readonly Migration[];
  readonly busyTimeoutMs?: number;
}

/**
 * Opens the one connection of the main process: WAL (readers never block the writer),
 * synchronous=FULL (a committed payment row survives a power cut), foreign keys on, a busy
 * timeout, then applies pending migrations.
 */
export function openDatabase(options: OpenDatabaseOptions): Db {
  const db = new Database(
    options.path,
    options.nativeBinding ? { nativeBinding: options.nativeBinding } : {},
  );
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -4000');
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    migrate(db, options.migrations ?? shippedMigrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
