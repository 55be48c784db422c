/**
 * The settings store: the settings as one validated value, read once, changed only by `update`
 * (a deep-merged patch validated as a whole), and written through a small backend that both
 * conf (Node) and electron-store (desktop) satisfy, so this file never imports electron.
 */
import { isDeepStrictEqual } from 'node:util';
import { SettingsValidationError } from './errors';
import { moveAside, type SettingsRecovery } from './recovery';
import { DEFAULT_SETTINGS, type Settings, type SettingsPatch } from '#shared/settings-schema';
import { validateSettings } from './validate';
import { writeOrDiskFull } from '#main/config/disk-full';

/** What the file holds: untrusted until validated, and may carry conf's own `__internal__`. */
export type SettingsFile = Record<string, unknown>;

/**
 * The part of conf / electron-store this store uses: the whole file as one object. Reading
 * `store` reads the file; assigning it writes the file atomically (and keeps conf's migration
 * bookkeeping).
 */
export interface SettingsBackend {
  /** The settings file, for moving a bad one aside. */
  readonly path: string;
  store: SettingsFile;
}

export type SettingsListener = (next: Settings, previous: Settings) => void;

export interface SettingsStore {
  get(): Settings;
  /**
   * Merges, validates the whole, writes, notifies. Throws SettingsValidationError, or
   * DiskFullError when the disk is full; nothing changes then.
   */
  update(patch: SettingsPatch): Settings;
  subscribe(listener: SettingsListener): () => void;
  /** Set when the file was unusable at open and was moved aside; the app should raise an alert. */
  readonly recovery: SettingsRecovery | null;
}

export interface SettingsStoreOptions {
  /** A recovery that already happened while the backend was opened (see openSettingsFile). */
  readonly recovered?: SettingsRecovery | null;
  /** Called once, synchronously, when the store started from defaults because of a bad file. */
  readonly onRecovered?: (recovery: SettingsRecovery) => void;
  /** A listener threw; the other listeners were still called. Default: rethrow after all ran. */
  readonly onListenerError?: (error: unknown) => void;
  readonly now?: () => Date;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Merges a patch into a base: objects key by key, anything else (arrays included) replaced
 * whole. A key the base does not have is refused, so a typo is an error and not silently
 * dropped; `undefined` means "leave as is".
 */
export function mergePatch(base: unknown, patch: unknown, path: readonly string[] = []): unknown {
  if (!isPlainObject(patch) || !isPlainObject(base)) return patch;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const field = [...path, key].join('.');
    if (!Object.hasOwn(base, key)) {
      throw new SettingsValidationError([
        { field, message: `There is no setting called "${field}"` },
      ]);
    }
    out[key] = mergePatch(base[key], value, [...path, key]);
  }
  return out;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

export function createSettingsStore(
  backend: SettingsBackend,
  options: SettingsStoreOptions = {},
): SettingsStore {
  const now = options.now ?? (() => new Date());
  let recovery = options.recovered ?? null;
  let current: Settings;
  try {
    current = validateSettings(backend.store);
  } catch (error) {
    if (!(error instanceof SettingsValidationError)) throw error;
    // The file passed the JSON Schema but not zod's rules (time zone, URLs...): keep it aside.
    const movedTo = moveAside(backend.path, now());
    backend.store = structuredClone(DEFAULT_SETTINGS);
    current = DEFAULT_SETTINGS;
    recovery = {
      reason: 'invalid',
      movedTo,
      at: now().toISOString(),
      detail: error.message,
      message: `The settings file had a value the app cannot use (${error.message}). It was kept as ${movedTo} and the settings were reset to their defaults. Check the settings, then re-enter any that were lost.`,
    };
  }
  deepFreeze(current);
  if (recovery) options.onRecovered?.(recovery);

  const listeners = new Set<SettingsListener>();

  function notify(next: Settings, previous: Settings): void {
    let firstError: { error: unknown } | undefined;
    for (const listener of [...listeners]) {
      try {
        listener(next, previous);
      } catch (error) {
        if (options.onListenerError) options.onListenerError(error);
        else firstError ??= { error };
      }
    }
    if (firstError) throw firstError.error;
  }

  return {
    recovery,
    get: () => current,
    update(patch) {
      if (!isPlainObject(patch)) {
        throw new SettingsValidationError([
          { field: '', message: 'A settings change must be a group of named values' },
        ]);
      }
      const next = validateSettings(mergePatch(current, patch));
      if (isDeepStrictEqual(next, current)) return current;
      // A copy: conf's validator may add defaults to the object it is given. A full disk
      // refuses the save whole: nothing changes here either.
      writeOrDiskFull('the settings were not saved', () => {
        backend.store = structuredClone(next);
      });
      const previous = current;
      current = deepFreeze(next);
      notify(current, previous);
      return current;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
