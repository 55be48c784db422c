/**
 * The data folder and every file the till writes in it belong to its user alone: 0700 and 0600
 * on POSIX, set explicitly (never left to the umask) and set again on files an older version or
 * a copy left looser. Windows has no such modes: there the data folder lives in the user's
 * profile, which other users cannot read (docs/running.md).
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The files SQLite keeps beside a database: the WAL, its index and a rollback journal. */
export const SQLITE_SIDE_SUFFIXES: readonly string[] = ['-wal', '-shm', '-journal'];

const POSIX = process.platform !== 'win32';

function chmodIfPresent(path: string, mode: number): void {
  if (!POSIX) return;
  try {
    chmodSync(path, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Creates the folder when missing and makes it owner-only either way; returns it. */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodIfPresent(dir, PRIVATE_DIR_MODE);
  return dir;
}

/** Makes an existing file owner-only (nothing when it is missing). */
export function keepPrivate(path: string): void {
  chmodIfPresent(path, PRIVATE_FILE_MODE);
}

/**
 * Before a database file is opened: the file exists and is owner-only (an empty file is an empty
 * database), and so are the WAL, index and journal a crash may have left. SQLite gives the side
 * files it creates later the database file's own mode, so they are owner-only too.
 */
export function prepareDatabaseFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  keepPrivate(path);
  for (const suffix of SQLITE_SIDE_SUFFIXES) keepPrivate(`${path}${suffix}`);
}
