import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SETTINGS_MIGRATIONS,
  renameExpiersIn,
  settingsBackendOptions,
  settingsJsonSchema,
} from './backend-options';
import { openNodeSettings } from './node-settings';
import { openSettingsFile, type SettingsRecovery } from './recovery';
import { DEFAULT_SETTINGS } from '#shared/settings-schema';
import { createSettingsStore, type SettingsFile } from './settings-store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tt-settings-file-'));
  dirs.push(dir);
  return dir;
}

const FIXED_NOW = new Date('2026-03-01T08:30:00.000Z');
const now = () => FIXED_NOW;

function readJson(path: string): SettingsFile {
  return JSON.parse(readFileSync(path, 'utf8')) as SettingsFile;
}

describe('settingsBackendOptions', () => {
  it('gives conf a schema its ajv (draft 2020-12, strict) compiles, with defaults and migrations', () => {
    const options = settingsBackendOptions('0.1.0');
    expect(options.configName).toBe('settings');
    expect(options.projectVersion).toBe('0.1.0');
    expect(options.clearInvalidConfig).toBe(false);
    expect(options.defaults).toEqual(DEFAULT_SETTINGS);
    expect(Object.keys(options.migrations)).toEqual(Object.keys(SETTINGS_MIGRATIONS));
    expect(Object.keys(options.schema).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
    // Constructing conf compiles the schema; a keyword ajv does not know would throw here.
    const conf = new Conf<SettingsFile>({ cwd: tempDir(), ...options });
    expect(conf.store['environment']).toBe('sandbox');
  });

  it('lets conf refuse a value the schema forbids, even written past the store', () => {
    const conf = new Conf<SettingsFile>({ cwd: tempDir(), ...settingsBackendOptions('0.1.0') });
    expect(() => conf.set('dayCutoffHour', 30)).toThrow(/Config schema violation/);
    expect(() => conf.set('profiles.sandbox.expiryMinutes', 'soon')).toThrow(
      /Config schema violation/,
    );
    expect(conf.get('dayCutoffHour')).toBe(0);
  });

  it('describes every profile field, with its default, as optional input', () => {
    const schema = settingsJsonSchema();
    const profiles = schema['profiles'];
    expect(profiles).toMatchObject({
      type: 'object',
      properties: {
        production: {
          properties: {
            expiryMinutes: { type: 'integer', minimum: 1, maximum: 1440, default: 15 },
          },
        },
      },
    });
    expect(JSON.stringify(schema)).not.toContain('"required"');
  });
});

describe('openNodeSettings', () => {
  it('creates <dataDir>/settings.json and records the version for migrations', () => {
    const dir = tempDir();
    const opened = openNodeSettings(dir, '0.1.0');
    expect(opened.recovery).toBeNull();
    expect(opened.backend.path).toBe(join(dir, 'settings.json'));
    const file = readJson(join(dir, 'settings.json'));
    expect(file['__internal__']).toEqual({ migrations: { version: '0.1.0' } });
  });

  it('migrates a file from before 0.1.0: expiersIn becomes expiryMinutes', () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    writeFileSync(
      path,
      JSON.stringify({
        environment: 'production',
        profiles: {
          production: { merchantId: 'M-7', expiersIn: 45 },
          staging: { expiersIn: 20, expiryMinutes: 25 },
        },
        __internal__: { migrations: { version: '0.0.9' } },
      }),
    );
    const opened = openNodeSettings(dir, '0.1.0');
    expect(opened.recovery).toBeNull();
    const store = createSettingsStore(opened.backend);
    expect(store.get().environment).toBe('production');
    expect(store.get().profiles.production.expiryMinutes).toBe(45);
    expect(store.get().profiles.production.merchantId).toBe('M-7');
    expect(store.get().profiles.staging.expiryMinutes).toBe(25);
    const onDisk = readJson(path);
    expect(JSON.stringify(onDisk)).not.toContain('expiersIn');
    expect(onDisk['__internal__']).toEqual({ migrations: { version: '0.1.0' } });
  });

  it('does not run a migration twice: a file already at 0.1.0 keeps an odd key as is', () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    writeFileSync(
      path,
      JSON.stringify({
        profiles: { sandbox: { expiersIn: 45 } },
        __internal__: { migrations: { version: '0.1.0' } },
      }),
    );
    const store = createSettingsStore(openNodeSettings(dir, '0.2.0').backend);
    expect(store.get().profiles.sandbox.expiryMinutes).toBe(15);
  });

  it('runs the rename directly as well (idempotent on a fresh file)', () => {
    const values = new Map<string, unknown>([['profiles.sandbox.expiersIn', 9]]);
    const store = {
      get: (key: string) => values.get(key),
      set: (key: string, value: unknown) => void values.set(key, value),
      has: (key: string) => values.has(key),
      delete: (key: string) => void values.delete(key),
    };
    renameExpiersIn(store);
    renameExpiersIn(store);
    expect([...values]).toEqual([['profiles.sandbox.expiryMinutes', 9]]);
  });

  it('keeps a corrupt file aside, starts from defaults and reports it', () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    const corrupt = '{"environment": "production", "profiles": {"produc';
    writeFileSync(path, corrupt);
    const opened = openNodeSettings(dir, '0.1.0', now);
    const recovery = opened.recovery;
    expect(recovery).not.toBeNull();
    expect(recovery?.reason).toBe('unreadable');
    expect(recovery?.movedTo).toBe(`${path}.invalid-2026-03-01T08-30-00-000Z`);
    expect(recovery?.message).toContain(recovery?.movedTo);
    expect(recovery?.detail).toMatch(/SyntaxError/);
    expect(readFileSync(recovery?.movedTo ?? '', 'utf8')).toBe(corrupt);

    const reported: SettingsRecovery[] = [];
    const store = createSettingsStore(opened.backend, {
      recovered: opened.recovery,
      onRecovered: (r) => reported.push(r),
    });
    expect(reported).toEqual([recovery]);
    expect(store.recovery).toEqual(recovery);
    // Nothing of the old file could be read, its till id neither: a new unique one.
    const { tillId } = store.get().shop;
    expect(tillId).toMatch(/^till-[0-9a-hjkmnp-tv-z]{4}$/);
    expect(store.get()).toEqual({
      ...DEFAULT_SETTINGS,
      shop: { ...DEFAULT_SETTINGS.shop, tillId },
    });
    store.update({ shop: { name: 'Fresh start' } });
    expect(readJson(path)['shop']).toMatchObject({ name: 'Fresh start' });
  });

  it('keeps aside a file that fails the JSON Schema (a value out of range)', () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    const bad = JSON.stringify({ dayCutoffHour: 99, shop: { name: 'Keep me' } });
    writeFileSync(path, bad);
    const opened = openNodeSettings(dir, '0.1.0', now);
    expect(opened.recovery?.reason).toBe('invalid');
    expect(readFileSync(opened.recovery?.movedTo ?? '', 'utf8')).toBe(bad);
    expect(createSettingsStore(opened.backend).get()).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps aside a file that passes the JSON Schema but not zod (a time zone that does not exist)', () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    const bad = JSON.stringify({ timeZone: 'Africa/Atlantis', shop: { name: 'Keep me' } });
    writeFileSync(path, bad);
    const opened = openNodeSettings(dir, '0.1.0', now);
    expect(opened.recovery?.reason).toBe('invalid');
    expect(opened.recovery?.message).toMatch(/Time zone: Unknown time zone/);
    expect(readFileSync(opened.recovery?.movedTo ?? '', 'utf8')).toBe(bad);
    const store = createSettingsStore(opened.backend, { recovered: opened.recovery });
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(readJson(path)['timeZone']).toBe('Africa/Lagos');
  });

  it('recovers in the store itself when a backend it was given holds values zod refuses', () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    writeFileSync(path, JSON.stringify({ timeZone: 'Africa/Atlantis', shop: { name: 'Keep me' } }));
    // Opened without openSettingsFile, as a custom backend would be.
    const conf = new Conf<SettingsFile>({ cwd: dir, ...settingsBackendOptions('0.1.0') });
    const reported: SettingsRecovery[] = [];
    const store = createSettingsStore(conf, { now, onRecovered: (r) => reported.push(r) });
    expect(reported).toHaveLength(1);
    expect(store.recovery?.reason).toBe('invalid');
    expect(store.recovery?.message).toMatch(/Time zone: Unknown time zone/);
    const kept = readJson(store.recovery?.movedTo ?? '');
    expect(kept['timeZone']).toBe('Africa/Atlantis');
    expect(kept['shop']).toEqual({ name: 'Keep me' });
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(readJson(path)['timeZone']).toBe('Africa/Lagos');
  });

  it('never overwrites an earlier kept file', () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    writeFileSync(path, 'not json 1');
    openNodeSettings(dir, '0.1.0', now);
    writeFileSync(path, 'not json 2');
    const second = openNodeSettings(dir, '0.1.0', now);
    expect(second.recovery?.movedTo).toBe(`${path}.invalid-2026-03-01T08-30-00-000Z-1`);
    const kept = readdirSync(dir).filter((name) => name.includes('.invalid-'));
    expect(kept.map((name) => readFileSync(join(dir, name), 'utf8')).sort()).toEqual([
      'not json 1',
      'not json 2',
    ]);
  });

  it('rethrows a failure that is not about the file, and moves nothing', () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{}');
    expect(() =>
      openSettingsFile(path, (): Conf<SettingsFile> => {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      }),
    ).toThrow(/EACCES/);
    expect(existsSync(path)).toBe(true);
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });
});
