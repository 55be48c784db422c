import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LEGACY_TILL_ID, referencePrefix, tillIdProblem } from '#shared/till-id';
import { openNodeSettings } from './node-settings';
import { createSettingsStore, type SettingsFile } from './settings-store';
import { generateTillId, migrateTillId, settleTillId, tillIdOfFile } from './till-id';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tt-till-id-'));
  dirs.push(dir);
  return dir;
}

/** The prefix an older build wrote into references for an id (as typed, cut to 16). */
function olderPrefix(tillId: string): string {
  return tillId.replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
}

const GENERATED = /^till-[0-9a-hjkmnp-tv-z]{4}$/;

describe('till ids', () => {
  it('makes till- and 4 Crockford characters from crypto randomness, valid and unique', () => {
    const ids = new Set(Array.from({ length: 300 }, () => generateTillId()));
    expect(ids.size).toBeGreaterThan(290); // about a million ids: a few collisions at most
    for (const id of ids) {
      expect(id).toMatch(GENERATED);
      expect(tillIdProblem(id)).toBeNull();
    }
    expect(generateTillId(() => Uint8Array.from([0, 31, 32, 255]))).toBe('till-0z0z');
    expect(referencePrefix('till-0z0z')).toBe('TILL0Z0Z');
  });

  it.each([
    ['till-1', null],
    ['FRONT', null],
    ['a', null],
    ['t'.repeat(16), null],
    ['', /enter a till id/i],
    ['t'.repeat(17), /at most 16/i],
    ['till_1', /letters, digits and -/i],
    ['till 1', /letters, digits and -/i],
    ['tíll', /letters, digits and -/i],
    ['---', /one letter or digit/i],
  ])('checks %j', (id, problem) => {
    const found = tillIdProblem(id);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });

  it("brings an older install's id under the rule without changing its reference prefix", () => {
    for (const old of [
      'till-1',
      'till_1',
      'front_counter',
      'front_counter_number_one',
      'Counter-Two-With-A-Long-Name-2024',
      '  spaced  ',
    ]) {
      const migrated = migrateTillId(old);
      expect(migrated, old).not.toBeNull();
      expect(tillIdProblem(migrated ?? ''), old).toBeNull();
      expect(referencePrefix(migrated ?? ''), old).toBe(olderPrefix(old.trim()).toUpperCase());
    }
    expect(migrateTillId('front_counter')).toBe('front-counter');
    expect(migrateTillId('till-1')).toBe('till-1');
    expect(migrateTillId('_-_')).toBeNull();
    expect(migrateTillId(42)).toBeNull();
  });

  it('settles the id of a settings file: new on first start, kept, migrated or carried over', () => {
    const random = () => Uint8Array.from([1, 2, 3, 4]);
    const file: SettingsFile = { shop: { name: 'Mama Put', tillId: 'till_2' } };
    expect(settleTillId({}, { firstStart: true, random })).toEqual({
      shop: { tillId: 'till-1234' },
    });
    expect(settleTillId(file, { firstStart: false })).toEqual({
      shop: { name: 'Mama Put', tillId: 'till-2' },
    });
    expect(settleTillId({ shop: { tillId: 'till-9' } }, { firstStart: false })).toBeNull();
    // No id at all: an older install on the old default, which its references carry.
    expect(settleTillId({ shop: { name: 'Mama Put' } }, { firstStart: false })).toBeNull();
    expect(tillIdOfFile({ shop: { name: 'Mama Put' } })).toBe(LEGACY_TILL_ID);
    expect(settleTillId({ shop: { tillId: '__' } }, { firstStart: false, random })).toEqual({
      shop: { tillId: 'till-1234' },
    });
    expect(settleTillId({}, { firstStart: false, carriedOver: 'front', random })).toEqual({
      shop: { tillId: 'front' },
    });
    expect(settleTillId({}, { firstStart: false, carriedOver: null, random })).toEqual({
      shop: { tillId: 'till-1234' },
    });
  });
});

describe('till ids in the settings file', () => {
  const read = (dir: string) =>
    JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as SettingsFile;
  const tillIdIn = (dir: string) => (read(dir)['shop'] as { tillId?: string }).tillId;

  it('gives each new till its own id on first start and keeps it across restarts', () => {
    const [a, b] = [tempDir(), tempDir()];
    const first = createSettingsStore(openNodeSettings(a, '0.1.0').backend).get().shop.tillId;
    const other = createSettingsStore(openNodeSettings(b, '0.1.0').backend).get().shop.tillId;
    expect(first).toMatch(GENERATED);
    expect(other).toMatch(GENERATED);
    expect(tillIdIn(a)).toBe(first);
    expect(createSettingsStore(openNodeSettings(a, '0.1.0').backend).get().shop.tillId).toBe(first);
    // Two ids in a million can match; ten draws make a flaky test practically impossible.
    const more = Array.from(
      { length: 10 },
      () => createSettingsStore(openNodeSettings(tempDir(), '0.1.0').backend).get().shop.tillId,
    );
    expect(new Set([first, other, ...more]).size).toBeGreaterThan(10);
  });

  it('keeps till-1 for an install that has it (written, or as the default), untouched', () => {
    for (const file of [
      { shop: { name: 'Old shop', tillId: 'till-1' } },
      { shop: { name: 'Old shop' } },
    ]) {
      const dir = tempDir();
      writeFileSync(join(dir, 'settings.json'), JSON.stringify(file));
      const store = createSettingsStore(openNodeSettings(dir, '0.1.0').backend);
      expect(store.get().shop.tillId).toBe(LEGACY_TILL_ID);
      expect(read(dir)['shop']).toEqual(file.shop);
    }
  });

  it("migrates an older install's id the new rule refuses, instead of resetting its settings", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        environment: 'production',
        shop: { name: 'Old shop', tillId: 'front_counter_number_one' },
        __internal__: { migrations: { version: '0.1.0' } },
      }),
    );
    const opened = openNodeSettings(dir, '0.1.0');
    expect(opened.recovery).toBeNull();
    const store = createSettingsStore(opened.backend);
    expect(store.get().environment).toBe('production');
    expect(store.get().shop).toMatchObject({ name: 'Old shop', tillId: 'frontcounternumb' });
    expect(tillIdIn(dir)).toBe('frontcounternumb');
  });

  it('carries the till id of a file that had to be moved aside into the fresh one', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({ dayCutoffHour: 99, shop: { tillId: 'till-k3j9' } }),
    );
    const opened = openNodeSettings(dir, '0.1.0');
    expect(opened.recovery?.reason).toBe('invalid');
    expect(createSettingsStore(opened.backend).get().shop.tillId).toBe('till-k3j9');
    expect(tillIdIn(dir)).toBe('till-k3j9');
  });
});
