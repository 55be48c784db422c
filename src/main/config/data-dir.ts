import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AppError } from '#shared/errors';
import { ensurePrivateDir } from './private-files';

export const DATA_DIR_ENV = 'TRANSFER_TILL_DATA_DIR';

export class DataDirError extends AppError<'DATA_DIR'> {
  constructor(message: string) {
    super('DATA_DIR', message);
    this.name = 'DataDirError';
  }
}

/**
 * The data directory outside Electron: `--data-dir <d>` (or `--data-dir=<d>`), else the
 * TRANSFER_TILL_DATA_DIR variable, else the fallback. Tests and the browser shell pass their own so
 * that they never share a database with the desktop app.
 */
export function resolveDataDir(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  fallback: string,
): string {
  // Not strict: the caller's other flags are its own to read (and to refuse).
  const { values } = parseArgs({
    args: [...argv],
    options: { 'data-dir': { type: 'string' } },
    strict: false,
    allowPositionals: true,
  });
  const chosen = values['data-dir'];
  // Missing (true), empty, or a flag taken as the folder: `--data-dir --port 5`.
  if (chosen !== undefined && (typeof chosen !== 'string' || !chosen || chosen.startsWith('--'))) {
    throw new DataDirError('--data-dir needs a folder');
  }
  return resolve(chosen ?? env[DATA_DIR_ENV] ?? fallback);
}

/** Creates the folder when missing and makes it owner-only (0700) either way; returns it. */
export function ensureDataDir(dir: string): string {
  return ensurePrivateDir(dir);
}
