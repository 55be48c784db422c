/**
 * A write the disk cannot take, named as such wherever the till writes a file (settings, keys,
 * backups), as the store names SQLITE_FULL (store-space.ts): the person is told the disk is full,
 * not "something went wrong".
 */
import { AppError } from '#shared/errors';

/** ENOSPC (no room left on the disk) or EDQUOT (this user's share of it is used up). */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

export class DiskFullError extends AppError<'DISK_FULL'> {
  /** `what`: what was not written, e.g. "the settings were not saved". */
  constructor(what: string, cause?: unknown) {
    super(
      'DISK_FULL',
      `The disk is full: ${what}. Free some space on this computer, then try again.`,
      cause === undefined ? {} : { cause },
    );
    this.name = 'DiskFullError';
  }
}

/** Runs a write; a full disk becomes a DiskFullError saying `what` was not written. */
export function writeOrDiskFull<T>(what: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (isDiskFull(error)) throw new DiskFullError(what, error);
    throw error;
  }
}
