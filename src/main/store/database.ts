import Database from 'better-sqlite3';
import { prepareDatabaseFile } from '#main/config/private-files';
import { migrate, type Migration } from './migrate';
import { migrations as shippedMigrations } from './migrations';

export type Db = Database.Database;

/** What the WAL file is cut back to after a checkpoint that empties it. */
export const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

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
 * timeout, then applies pending migrations. The file and its WAL are owner-only (0600).
 */
export function openDatabase(options: OpenDatabaseOptions): Db {
  if (options.path !== ':memory:') prepareDatabaseFile(options.path);
  const db = new Database(
    options.path,
    options.nativeBinding ? { nativeBinding: options.nativeBinding } : {},
  );
  try {
    // Freed pages can go back to the file system (maintenance.ts): takes effect at once on a
    // new file, and at the one-off VACUUM on a store made before (convertToIncrementalVacuum).
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    // A checkpoint that empties the WAL also shrinks its file to this (a busy hour can grow it).
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
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
