import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '#shared/settings-schema';
import { openNodeSettings } from './node-settings';
import { createSettingsStore, type SettingsFile, type SettingsStore } from './settings-store';
import { followShopName, nameShop, namingPatch, settleShopName, shopNameWanted } from './shop-name';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tt-shop-name-'));
  dirs.push(dir);
  return dir;
}

function open(dataDir: string): SettingsStore {
  return createSettingsStore(openNodeSettings(dataDir, '0.1.0').backend);
}

function fileOf(dataDir: string): SettingsFile {
  return JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as SettingsFile;
}

describe('whether the till asks the shop name', () => {
  it('a fresh till is asked, and its file says so (not only a browser)', () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    expect(store.get().shop.nameConfirmed).toBe(false);
    expect(fileOf(dataDir)['shop']).toMatchObject({ nameConfirmed: false });
    expect(shopNameWanted(store.get(), false)).toBe(true);
    // A restart before the name was given asks again.
    expect(shopNameWanted(open(dataDir).get(), false)).toBe(true);
  });

  it('an upgraded till (a file from before the question) is not asked, even on the default name', () => {
    const dataDir = tempDir();
    writeFileSync(
      join(dataDir, 'settings.json'),
      JSON.stringify({ environment: 'sandbox', shop: { name: 'My Shop', tillId: 'till-ab12' } }),
    );
    const store = open(dataDir);
    expect(store.get().shop).toMatchObject({ name: 'My Shop', nameConfirmed: true });
    expect(shopNameWanted(store.get(), false)).toBe(false);
  });

  it('a fresh till that has a sale, or a name given in Settings, is not asked', () => {
    const store = open(tempDir());
    expect(shopNameWanted(store.get(), true)).toBe(false);
    store.update({ shop: { name: 'Mama Put Stores' } });
    expect(shopNameWanted(store.get(), false)).toBe(false);
  });

  it('marks only a first start', () => {
    expect(settleShopName({ shop: { tillId: 'till-ab12' } }, true)).toEqual({
      shop: { tillId: 'till-ab12', nameConfirmed: false },
    });
    expect(settleShopName({ shop: { tillId: 'till-ab12' } }, false)).toBeNull();
  });
});

describe('naming the shop', () => {
  it('sets the name, stops asking, and names every profile still on the starting default', () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    store.update({ profiles: { production: { accountName: 'MAMA PUT NIG LTD' } } });
    const named = nameShop(store, '  Mama Put Stores ');
    expect(named.shop).toMatchObject({ name: 'Mama Put Stores', nameConfirmed: true });
    expect(named.profiles.sandbox.accountName).toBe('Mama Put Stores');
    expect(named.profiles.staging.accountName).toBe('Mama Put Stores');
    // The owner's own choice for one environment stays.
    expect(named.profiles.production.accountName).toBe('MAMA PUT NIG LTD');
    expect(shopNameWanted(open(dataDir).get(), false)).toBe(false);
    expect(open(dataDir).get().profiles.sandbox.accountName).toBe('Mama Put Stores');
  });

  it('refuses a blank or too long name as the shop name, and changes nothing', () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    const before = store.get();
    expect(() => nameShop(store, '   ')).toThrow(
      expect.objectContaining({
        code: 'INVALID_SETTINGS',
        field: 'shop.name',
        message: 'Shop name: Enter the shop name',
      }),
    );
    expect(() => nameShop(store, 'x'.repeat(101))).toThrow(
      expect.objectContaining({ field: 'shop.name', message: 'Shop name: At most 100 characters' }),
    );
    expect(store.get()).toBe(before);
    expect(fileOf(dataDir)['shop']).toMatchObject({ name: 'My Shop', nameConfirmed: false });
    expect(nameShop(store, 'x'.repeat(100)).shop.name).toHaveLength(100);
  });

  it('leaves a profile alone once it holds anything but the starting default', () => {
    const settings: Settings = {
      ...DEFAULT_SETTINGS,
      profiles: {
        ...DEFAULT_SETTINGS.profiles,
        staging: { ...DEFAULT_SETTINGS.profiles.staging, accountName: 'Mama Put (Ikeja)' },
      },
    };
    expect(namingPatch(settings, 'Mama Put')).toEqual({
      shop: { name: 'Mama Put', nameConfirmed: true },
      profiles: { sandbox: { accountName: 'Mama Put' }, production: { accountName: 'Mama Put' } },
    });
  });

  it('carries a later rename to the profiles that follow the shop, not to one chosen apart', () => {
    const named: Settings = {
      ...DEFAULT_SETTINGS,
      shop: { ...DEFAULT_SETTINGS.shop, name: 'Mama Put', nameConfirmed: true },
      profiles: {
        sandbox: { ...DEFAULT_SETTINGS.profiles.sandbox, accountName: 'Mama Put' },
        staging: { ...DEFAULT_SETTINGS.profiles.staging, accountName: 'Mama Put (Ikeja)' },
        production: { ...DEFAULT_SETTINGS.profiles.production, accountName: 'Mama Put' },
      },
    };
    expect(followShopName(named, { shop: { name: ' Mama Put Stores ' } })).toEqual({
      shop: { name: ' Mama Put Stores ' },
      profiles: {
        sandbox: { accountName: 'Mama Put Stores' },
        production: { accountName: 'Mama Put Stores' },
      },
    });
    // The same change naming a profile itself keeps that choice; no rename, no change.
    const own = { shop: { name: 'Iya Basira' }, profiles: { production: { accountName: 'IB' } } };
    expect(followShopName(named, own)).toEqual({
      ...own,
      profiles: { sandbox: { accountName: 'Iya Basira' }, production: { accountName: 'IB' } },
    });
    const same = { shop: { name: 'Mama Put' } };
    expect(followShopName(named, same)).toBe(same);
  });
});
