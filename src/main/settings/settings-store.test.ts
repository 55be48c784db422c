import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsValidationError, fieldLabel } from './errors';
import { openNodeSettings } from './node-settings';
import { DEFAULT_SETTINGS, type Settings } from '#shared/settings-schema';
import {
  createSettingsStore,
  mergePatch,
  type SettingsBackend,
  type SettingsFile,
  type SettingsStore,
} from './settings-store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tt-settings-'));
  dirs.push(dir);
  return dir;
}

function openStore(dir = tempDir()): { store: SettingsStore; file: string } {
  const opened = openNodeSettings(dir, '0.1.0');
  return { store: createSettingsStore(opened.backend), file: join(dir, 'settings.json') };
}

function validationError(run: () => unknown): SettingsValidationError {
  try {
    run();
  } catch (error) {
    if (error instanceof SettingsValidationError) return error;
    throw error;
  }
  throw new Error('expected a SettingsValidationError');
}

describe('settings store', () => {
  it('starts from the defaults and writes them to settings.json', () => {
    const { store, file } = openStore();
    // The values that are not defaults: a fresh till gets a till id of its own, and its shop's
    // name is still to be asked (a file without the mark is an older till's: see shop-name.ts).
    const { tillId } = store.get().shop;
    expect(tillId).toMatch(/^till-[0-9a-hjkmnp-tv-z]{4}$/);
    expect(store.get()).toEqual({
      ...DEFAULT_SETTINGS,
      shop: { ...DEFAULT_SETTINGS.shop, tillId, nameConfirmed: false },
    });
    expect(store.get().environment).toBe('sandbox');
    expect(store.get().profiles.production.merchantCategory).toBe('others');
    expect(store.get().timeZone).toBe('Africa/Lagos');
    expect(store.recovery).toBeNull();
    const onDisk = JSON.parse(readFileSync(file, 'utf8')) as SettingsFile;
    expect(onDisk['environment']).toBe('sandbox');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('deep-merges a partial update and keeps every untouched value', () => {
    const dir = tempDir();
    const { store } = openStore(dir);
    store.update({ profiles: { staging: { merchantId: 'M-100', expiryMinutes: 30 } } });
    const next = store.update({ shop: { name: '  Mama Put Stores ' }, environment: 'staging' });
    expect(next.profiles.staging).toEqual({
      ...DEFAULT_SETTINGS.profiles.staging,
      merchantId: 'M-100',
      expiryMinutes: 30,
    });
    expect(next.profiles.production).toEqual(DEFAULT_SETTINGS.profiles.production);
    expect(next.shop).toEqual({
      ...DEFAULT_SETTINGS.shop,
      tillId: next.shop.tillId,
      nameConfirmed: false,
      name: 'Mama Put Stores',
    });
    expect(next.environment).toBe('staging');
    // A second process opening the same file sees the change.
    expect(openStore(dir).store.get()).toEqual(next);
  });

  it('replaces arrays whole rather than merging them', () => {
    const { store } = openStore();
    store.update({ shop: { cashiers: ['Ada', 'Bayo', 'Chidi'] } });
    expect(store.update({ shop: { cashiers: ['Ngozi'] } }).shop.cashiers).toEqual(['Ngozi']);
  });

  it('returns a frozen value that callers cannot change behind its back', () => {
    const { store } = openStore();
    const settings = store.get();
    expect(() => {
      (settings.profiles.sandbox as { expiryMinutes: number }).expiryMinutes = 99;
    }).toThrow(TypeError);
    expect(store.get().profiles.sandbox.expiryMinutes).toBe(15);
  });

  const invalid: readonly [string, Record<string, unknown>, string, RegExp][] = [
    [
      'expiry of zero',
      { profiles: { production: { expiryMinutes: 0 } } },
      'profiles.production.expiryMinutes',
      /at least 1 minute/i,
    ],
    [
      'fractional expiry',
      { profiles: { staging: { expiryMinutes: 2.5 } } },
      'profiles.staging.expiryMinutes',
      /whole minutes/i,
    ],
    [
      'expiry as text',
      { profiles: { sandbox: { expiryMinutes: '15' } } },
      'profiles.sandbox.expiryMinutes',
      /must be a number/i,
    ],
    [
      'http address in production',
      { profiles: { production: { baseUrl: 'http://api.example.com' } } },
      'profiles.production.baseUrl',
      /https/,
    ],
    [
      'address with a password',
      { profiles: { sandbox: { payoutBaseUrl: 'https://u:p@api.example.com' } } },
      'profiles.sandbox.payoutBaseUrl',
      /user name or password/,
    ],
    [
      'not a URL',
      { profiles: { staging: { baseUrl: 'api' } } },
      'profiles.staging.baseUrl',
      /full address/,
    ],
    [
      'payout account with letters',
      { profiles: { production: { payoutAccountId: '12AB' } } },
      'profiles.production.payoutAccountId',
      /digits only/i,
    ],
    [
      'empty account name',
      { profiles: { production: { accountName: '   ' } } },
      'profiles.production.accountName',
      /name customers see/,
    ],
    [
      'unknown environment',
      { environment: 'live' },
      'environment',
      /one of: sandbox, staging, production/,
    ],
    ['unknown time zone', { timeZone: 'Africa/Atlantis' }, 'timeZone', /unknown time zone/i],
    ['cut-off hour 24', { dayCutoffHour: 24 }, 'dayCutoffHour', /0 to 23/],
    ['till id with a space', { shop: { tillId: 'till 1' } }, 'shop.tillId', /letters, digits/i],
    ['till id with _', { shop: { tillId: 'till_1' } }, 'shop.tillId', /letters, digits and -/i],
    ['till id of 17', { shop: { tillId: 'front-counter-one' } }, 'shop.tillId', /at most 16/i],
    ['till id of dashes', { shop: { tillId: '--' } }, 'shop.tillId', /one letter or digit/i],
    ['empty till id', { shop: { tillId: '  ' } }, 'shop.tillId', /enter a till id/i],
    ['duplicate cashier', { shop: { cashiers: ['Ada', 'ada'] } }, 'shop.cashiers.1', /already/],
    ['volume above 1', { sounds: { volume: 1.5 } }, 'sounds.volume', /0 to 1/],
    ['sounds as text', { sounds: { enabled: 'yes' } }, 'sounds.enabled', /on or off/],
    [
      'bad IP range',
      { callbacks: { ngrokAllowCidrs: ['10.0.0.0/40'] } },
      'callbacks.ngrokAllowCidrs.0',
      /IP address/,
    ],
    [
      'domain with scheme',
      { callbacks: { ngrokDomain: 'https://x.ngrok.app' } },
      'callbacks.ngrokDomain',
      /no https/,
    ],
    [
      'public-url mode without a URL',
      { callbacks: { mode: 'public-url' } },
      'callbacks.publicUrl',
      /public address/,
    ],
    ['a typo in a key', { shop: { nmae: 'Ada' } }, 'shop.nmae', /no setting called "shop.nmae"/],
    ['an unknown top-level key', { __proto__x: 1 }, '__proto__x', /no setting/],
    ['a group replaced by a value', { profiles: 'none' }, 'profiles', /group of settings/],
  ];

  it.each(invalid)(
    'refuses %s with its field and plain words, writing nothing',
    (_name, patch, field, words) => {
      const { store, file } = openStore();
      store.update({ shop: { name: 'Before' } });
      const before = readFileSync(file, 'utf8');
      const settingsBefore = store.get();
      const error = validationError(() => store.update(patch));
      expect(error.code).toBe('INVALID_SETTINGS');
      expect(error.field).toBe(field);
      expect(error.issues[0]?.message).toMatch(words);
      expect(error.message).toMatch(words);
      expect(error.message).not.toMatch(/expected|received|zod/i);
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(store.get()).toBe(settingsBefore);
    },
  );

  it('refuses a whole update when one of several values is bad', () => {
    const { store, file } = openStore();
    const before = readFileSync(file, 'utf8');
    const error = validationError(() =>
      store.update({ shop: { name: 'Good name' }, maxSaleKobo: -1 }),
    );
    expect(error.field).toBe('maxSaleKobo');
    expect(store.get().shop.name).toBe(DEFAULT_SETTINGS.shop.name);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('refuses a patch that is not an object', () => {
    const { store } = openStore();
    const patches: unknown[] = [null, [], 'x'];
    for (const patch of patches) {
      expect(validationError(() => store.update(patch as Record<string, unknown>)).field).toBe('');
    }
  });

  it('names fields in words for the alert', () => {
    expect(fieldLabel('profiles.production.expiryMinutes')).toBe(
      'Default expiry (minutes) (production)',
    );
    expect(fieldLabel('shop.cashiers.3')).toBe('Cashiers');
    expect(fieldLabel('')).toBe('Settings');
    // By the whole path, not the last name: the voice's switch is not the chime's.
    expect(fieldLabel('sounds.voice.enabled')).toBe('Say the amount when a sale is paid');
    expect(fieldLabel('sounds.enabled')).toBe('Play a chime when a sale is paid');
    expect(fieldLabel('sounds.voice.volume')).toBe('Voice volume');
    expect(fieldLabel('secrets.secretKey')).toBe('Secret key');
  });

  it('tells subscribers about a change, once, with the previous value, until they leave', () => {
    const { store } = openStore();
    const seen: [Settings, Settings][] = [];
    const unsubscribe = store.subscribe((next, previous) => seen.push([next, previous]));
    store.update({ dayCutoffHour: 4 });
    store.update({ dayCutoffHour: 4 }); // no change: no event
    expect(() => store.update({ dayCutoffHour: 99 })).toThrow(SettingsValidationError);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.[0].dayCutoffHour).toBe(4);
    expect(seen[0]?.[1].dayCutoffHour).toBe(0);
    unsubscribe();
    store.update({ dayCutoffHour: 5 });
    expect(seen).toHaveLength(1);
  });

  it('still tells every subscriber when one throws, and reports the error', () => {
    const dir = tempDir();
    const errors: unknown[] = [];
    const store = createSettingsStore(openNodeSettings(dir, '0.1.0').backend, {
      onListenerError: (error) => errors.push(error),
    });
    let called = 0;
    store.subscribe(() => {
      throw new Error('boom');
    });
    store.subscribe(() => {
      called += 1;
    });
    store.update({ sync: { onStartup: false } });
    expect(called).toBe(1);
    expect(errors).toEqual([new Error('boom')]);
    expect(store.get().sync.onStartup).toBe(false);
  });

  it('leaves the stored value unchanged when the backend cannot write', () => {
    let writes = 0;
    const backend: SettingsBackend = {
      path: join(tempDir(), 'settings.json'),
      get store(): SettingsFile {
        return structuredClone(DEFAULT_SETTINGS);
      },
      set store(_value: SettingsFile) {
        writes += 1;
        throw new Error('disk full');
      },
    };
    const store = createSettingsStore(backend);
    expect(() => store.update({ dayCutoffHour: 3 })).toThrow('disk full');
    expect(writes).toBe(1);
    expect(store.get().dayCutoffHour).toBe(0);
  });
});

describe('mergePatch', () => {
  it('merges objects, replaces leaves and arrays, skips undefined', () => {
    expect(mergePatch({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, d: undefined })).toEqual({
      a: { b: 1, c: [3] },
      d: 1,
    });
  });

  it('refuses __proto__ smuggled in through JSON', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    expect(() => mergePatch({ a: 1 }, patch)).toThrow(SettingsValidationError);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('leaves no stray files behind after updates', () => {
    const dir = tempDir();
    const { store } = openStore(dir);
    for (let hour = 1; hour < 6; hour++) store.update({ dayCutoffHour: hour });
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });
});

/** What node's fs throws when the disk has no room left (ENOSPC), as conf passes it on. */
function noSpace(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
    errno: -28,
    syscall: 'write',
  });
}

describe('a settings save on a full disk', () => {
  // Injected at the file's edge: the real conf file, whose write answers ENOSPC while `full`
  // (a truly full disk cannot be made safely on a shared machine).
  it('is refused as a full disk (DISK_FULL, "The disk is full: …"), and nothing changes', () => {
    const dir = tempDir();
    const conf = openNodeSettings(dir, '0.1.0').backend;
    let full = false;
    const backend: SettingsBackend = {
      path: conf.path,
      get store() {
        return conf.store;
      },
      set store(value) {
        if (full) throw noSpace();
        conf.store = value;
      },
    };
    const store = createSettingsStore(backend);
    store.update({ shop: { name: 'Mama Put Stores' } });
    const heard: string[] = [];
    store.subscribe((next) => heard.push(next.shop.name));
    full = true;
    let refused: unknown;
    try {
      store.update({ shop: { name: 'Iya Basira' } });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      code: 'DISK_FULL',
      message:
        'The disk is full: the settings were not saved. Free some space on this computer, then try again.',
    });
    expect(store.get().shop.name).toBe('Mama Put Stores');
    expect(heard).toEqual([]);
    const onDisk = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as Settings;
    expect(onDisk.shop.name).toBe('Mama Put Stores');
    // Room again: the same save goes through.
    full = false;
    expect(store.update({ shop: { name: 'Iya Basira' } }).shop.name).toBe('Iya Basira');
  });

  it('passes any other write failure on as it is', () => {
    const conf = openNodeSettings(tempDir(), '0.1.0').backend;
    const backend: SettingsBackend = {
      path: conf.path,
      get store() {
        return conf.store;
      },
      set store(_value) {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
    };
    const store = createSettingsStore(backend);
    expect(() => store.update({ shop: { name: 'Iya Basira' } })).toThrow(/EACCES/);
  });
});
