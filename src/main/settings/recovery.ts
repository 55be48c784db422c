/**
 * A settings file that cannot be used must neither crash the app nor be lost: it is renamed to
 * settings.json.invalid-<time>, the app starts from defaults, and the recovery is reported so
 * the app can raise an alert that says where the old file is.
 */
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { keepPrivate } from '#main/config/private-files';
import { SettingsFileError, SettingsValidationError } from './errors';
import type { SettingsBackend, SettingsFile } from './settings-store';
import { settleShopName } from './shop-name';
import { settleTillId, tillIdOfFile, type TillIdStart } from './till-id';
import { validateSettings } from './validate';

export interface SettingsRecovery {
  /** 'unreadable': not JSON (or an unfinished migration); 'invalid': values the app cannot use. */
  readonly reason: 'unreadable' | 'invalid';
  /** Where the bad file now is. */
  readonly movedTo: string;
  /** ISO time of the recovery. */
  readonly at: string;
  /** The technical reason, for the log. */
  readonly detail: string;
  /** Plain words for the alert. */
  readonly message: string;
}

function stamp(date: Date): string {
  // No ':' in file names: Windows refuses them.
  return date.toISOString().replace(/[:.]/g, '-');
}

function asideName(path: string, now: Date): string {
  const base = `${path}.invalid-${stamp(now)}`;
  let target = base;
  for (let n = 1; existsSync(target); n++) target = `${base}-${n}`;
  return target;
}

function cannotMove(path: string, target: string, error: unknown): SettingsFileError {
  return new SettingsFileError(
    path,
    `The settings file ${path} cannot be used and could not be moved aside to ${target}. Move it away by hand and start the app again.`,
    { cause: error },
  );
}

/** Renames `path` to `<path>.invalid-<time>` (never over an existing file); returns the new path. */
export function moveAside(path: string, now: Date): string {
  const target = asideName(path, now);
  try {
    renameSync(path, target);
  } catch (error) {
    throw cannotMove(path, target, error);
  }
  return target;
}

/**
 * Keeps `original` (the file's bytes before conf touched it: conf rewrites the file with its
 * defaults before it validates) as `<path>.invalid-<time>`, then removes `path`.
 */
function keepAside(path: string, original: Buffer, now: Date): string {
  const target = asideName(path, now);
  try {
    writeFileSync(target, original, { flag: 'wx', mode: 0o600 });
    unlinkSync(path);
  } catch (error) {
    throw cannotMove(path, target, error);
  }
  return target;
}

function readIfPresent(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Errors conf / electron-store (or zod) throw for a file that exists but is not usable settings. */
export function isBadFileError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  return (
    error instanceof SettingsValidationError ||
    error.name === 'SyntaxError' ||
    error.message.startsWith('Config schema violation') ||
    error.message.startsWith('Something went wrong during the migration')
  );
}

/**
 * Writes the file as it should be before it is validated: its till id (see settleTillId) and,
 * on a first start, the mark that the shop's name is still to be asked (see settleShopName).
 */
function settle(backend: SettingsBackend, start: TillIdStart): void {
  const withId = settleTillId(backend.store, start);
  const file = withId ?? backend.store;
  const settled = settleShopName(file, start.firstStart) ?? withId;
  if (settled) backend.store = settled;
}

/** The till id of a file that is being moved aside, when its JSON can still be read. */
function tillIdOfOriginal(original: Buffer): string | null {
  try {
    const parsed = JSON.parse(original.toString('utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? tillIdOfFile(parsed as SettingsFile)
      : null;
  } catch {
    return null;
  }
}

export interface OpenedSettings<B> {
  readonly backend: B;
  /** Set when the file was bad and was moved aside; pass it to createSettingsStore. */
  readonly recovery: SettingsRecovery | null;
}

/**
 * Opens a conf-like backend whose constructor reads `path` (JSON parse, migrations, JSON
 * Schema), settles the till id (a unique one on first start, see till-id.ts), then checks the
 * result with zod. When either fails because of the file, the file as
 * it was before opening is kept aside and a fresh one is opened. Other failures (permissions, a
 * full disk) are thrown: starting from defaults would not fix them. The file is owner-only (a
 * file an older version left readable is tightened before it is read).
 */
export function openSettingsFile<B extends SettingsBackend>(
  path: string,
  open: () => B,
  now: () => Date = () => new Date(),
): OpenedSettings<B> {
  keepPrivate(path);
  const original = readIfPresent(path);
  try {
    const backend = open();
    settle(backend, { firstStart: original === null });
    validateSettings(backend.store);
    return { backend, recovery: null };
  } catch (error) {
    if (!isBadFileError(error) || original === null) throw error;
    const at = now();
    const movedTo = keepAside(path, original, at);
    const backend = open();
    settle(backend, { firstStart: false, carriedOver: tillIdOfOriginal(original) });
    const reason =
      error instanceof SettingsValidationError ||
      error.message.startsWith('Config schema violation')
        ? 'invalid'
        : 'unreadable';
    return {
      backend,
      recovery: {
        reason,
        movedTo,
        at: at.toISOString(),
        detail: errorText(error),
        message:
          reason === 'invalid'
            ? `The settings file had values the app cannot use${error instanceof SettingsValidationError ? ` (${error.message})` : ''}. It was kept as ${movedTo} and the settings were reset to their defaults. Check the settings, then re-enter any that were lost.`
            : `The settings file was damaged and could not be read. It was kept as ${movedTo} and the settings were reset to their defaults. Check the settings, then re-enter any that were lost.`,
      },
    };
  }
}
