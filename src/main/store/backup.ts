import { readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, keepPrivate, prepareDatabaseFile } from '#main/config/private-files';
import { DiskFullError, isDiskFull } from '#main/config/disk-full';
import type { Db } from './database';
import { isStoreFullError } from './store-space';

export interface BackupOptions {
  readonly dir: string;
  /** How many daily backups to keep. */
  readonly keep: number;
  readonly day: string;
}

const BACKUP_FILE = /^till-(\d{4}-\d{2}-\d{2})\.sqlite$/;

/**
 * An online backup of the live database (better-sqlite3's backup API: consistent while the app
 * keeps writing) into <dir>/till-<day>.sqlite; once per day, keeping the newest `keep` files.
 * Returns the path written, or null when today's backup exists already. The folder is owner-only
 * (0700) and so is the backup (0600) from its first byte.
 */
export async function dailyBackup(db: Db, options: BackupOptions): Promise<string | null> {
  ensurePrivateDir(options.dir);
  const existing = readdirSync(options.dir)
    .filter((name) => BACKUP_FILE.test(name))
    .sort();
  const target = join(options.dir, `till-${options.day}.sqlite`);
  if (existing.includes(`till-${options.day}.sqlite`)) return null;
  // Made owner-only before SQLite writes a page into it (and its journal takes the same mode).
  rmSync(`${target}.partial`, { force: true });
  prepareDatabaseFile(`${target}.partial`);
  try {
    await db.backup(`${target}.partial`);
  } catch (error) {
    // A half backup only takes room the till needs: gone, and a full disk said as such.
    rmSync(`${target}.partial`, { force: true });
    if (isDiskFull(error) || isStoreFullError(error)) {
      throw new DiskFullError(`the backup of ${options.day} was not written`, error);
    }
    throw error;
  }
  rmSync(target, { force: true });
  // Renamed only once complete, so a crash mid-backup never leaves a half file that looks whole.
  renameSync(`${target}.partial`, target);
  const all = [...existing, `till-${options.day}.sqlite`].sort();
  for (const old of all.slice(0, Math.max(0, all.length - options.keep))) {
    rmSync(join(options.dir, old), { force: true });
  }
  return target;
}

/**
 * Makes the backups folder (<dataDir>/backups, one folder per environment) and every backup in it
 * owner-only: run at start, so that backups an older version left readable are private at once.
 */
export function keepBackupsPrivate(root: string): void {
  ensurePrivateDir(root);
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = ensurePrivateDir(join(root, entry.name));
    for (const name of readdirSync(dir)) if (BACKUP_FILE.test(name)) keepPrivate(join(dir, name));
  }
}
