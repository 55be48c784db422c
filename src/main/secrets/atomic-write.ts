import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Names of the temporary files writeFileAtomic leaves only if the process dies mid-write. */
export function isAtomicTempName(name: string, target: string): boolean {
  return name.startsWith(`.${target}.`) && name.endsWith('.tmp');
}

/**
 * Replaces `path` with `data` so that a crash leaves either the old file or the new one, never
 * half of each: write a temporary file in the same folder (created with `mode`), flush it to
 * disk, rename it over the target, then flush the folder so the rename itself is durable.
 */
export function writeFileAtomic(path: string, data: string | Buffer, mode = 0o600): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', mode);
  try {
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncDirectory(dir);
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Windows cannot open or fsync a folder; NTFS journals the rename itself.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
