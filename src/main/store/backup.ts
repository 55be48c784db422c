import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './database';

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
 * Returns the path written, or null when today's backup exists already.
 */
export async function dailyBackup(db: Db, options: BackupOptions): Promise<string | null> {
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const existing = readdirSync(options.dir)
    .filter((name) => BACKUP_FILE.test(name))
    .sort();
  const target = join(options.dir, `till-${options.day}.sqlite`);
  if (existing.includes(`till-${options.day}.sqlite`)) return null;
  await db.backup(`${target}.partial`);
  rmSync(target, { force: true });
  // Renamed only once complete, so a crash mid-backup never leaves a half file that looks whole.
  renameSync(`${target}.partial`, target);
  const all = [...existing, `till-${options.day}.sqlite`].sort();
  for (const old of all.slice(0, Math.max(0, all.length - options.keep))) {
    rmSync(join(options.dir, old), { force: true });
  }
  return target;
}
