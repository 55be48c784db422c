/**
 * The options conf and electron-store are built with: file name, a JSON Schema derived from the
 * zod schema, defaults, and migrations of the settings file keyed by app version (conf's way).
 */
import type { Options } from 'conf';
import { z } from 'zod';
import { DEFAULT_SETTINGS, ENVIRONMENTS, settingsSchema } from '#shared/settings-schema';
import type { SettingsFile } from './settings-store';

export const SETTINGS_FILE_NAME = 'settings';

type ConfSchema = NonNullable<Options<SettingsFile>['schema']>;
type PropertySchema = ConfSchema[string];

/** What a migration may do to the file: the part of conf's store it is given. */
export interface MigrationStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  has(key: string): boolean;
  delete(key: string): void;
}
export type SettingsMigration = (store: MigrationStore) => void;

/**
 * Builds before 0.1.0 stored each profile's account expiry as `expiersIn`, the provider's own
 * spelling of the create field. 0.1.0 calls it `expiryMinutes`. A value already under the new
 * name wins; the old key is always removed. Safe to run on any file, including a fresh one.
 */
export function renameExpiersIn(store: MigrationStore): void {
  for (const environment of ENVIRONMENTS) {
    const oldKey = `profiles.${environment}.expiersIn`;
    const newKey = `profiles.${environment}.expiryMinutes`;
    if (!store.has(oldKey)) continue;
    if (!store.has(newKey)) store.set(newKey, store.get(oldKey));
    store.delete(oldKey);
  }
}

/**
 * Migrations of the settings file, keyed by the app version that introduced them. conf runs
 * every key above the version recorded in the file (in `__internal__`) and up to the running
 * version, then records it. A shipped migration is never edited; each must be idempotent
 * (a file moved aside and restarted from defaults runs them all again).
 */
export const SETTINGS_MIGRATIONS: Readonly<Record<string, SettingsMigration>> = {
  '0.1.0': renameExpiersIn,
};

/**
 * The JSON Schema conf's ajv (draft 2020-12) checks the file with, one entry per top-level key.
 * Input mode: fields with defaults are optional, as in a file written by an older version, and
 * unknown keys (conf's own `__internal__`, a key a migration will rename) are allowed. Zod's
 * refinements (URLs, time zone, https) are not representable; zod checks those after opening.
 */
export function settingsJsonSchema(): ConfSchema {
  const root = z.toJSONSchema(settingsSchema, { io: 'input', unrepresentable: 'throw' });
  const properties = root.properties ?? {};
  const schema: ConfSchema = {};
  for (const [key, value] of Object.entries(properties)) {
    // zod's JSON Schema type and conf's (json-schema-typed) describe the same draft-2020-12
    // documents with different TypeScript types; the ajv test checks the value itself.
    schema[key] = value as PropertySchema;
  }
  return schema;
}

export interface SettingsBackendOptions {
  readonly configName: string;
  readonly schema: ConfSchema;
  readonly defaults: Readonly<SettingsFile>;
  readonly projectVersion: string;
  readonly migrations: Record<string, SettingsMigration>;
  readonly clearInvalidConfig: false;
  readonly configFileMode: number;
}

export function settingsBackendOptions(version: string): SettingsBackendOptions {
  return {
    configName: SETTINGS_FILE_NAME,
    schema: settingsJsonSchema(),
    defaults: structuredClone(DEFAULT_SETTINGS),
    projectVersion: version,
    migrations: { ...SETTINGS_MIGRATIONS },
    // A bad file is moved aside by openSettingsFile, never silently emptied.
    clearInvalidConfig: false,
    configFileMode: 0o600,
  };
}
