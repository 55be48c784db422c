import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb } from '#support/database';
import { listOpenAlerts, raiseAlert } from './alerts-repo';
import type { Db } from './database';
import {
  createStoreSpace,
  isStoreFullError,
  liftStoreGrowthLimit,
  limitStoreGrowth,
  StoreFullError,
  type StoreSpaceChange,
} from './store-space';

let db: Db | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

function opened(): Db {
  db = createTestDb().db;
  return db;
}

function alertCount(target: Db): number {
  return (target.prepare('SELECT count(*) AS n FROM alerts').get() as { n: number }).n;
}

function alert(n: number) {
  return { level: 'info' as const, kind: 'test', message: `alert ${n} ${'x'.repeat(400)}` };
}

/** Writes alerts until the store refuses one: the file has reached its limit. */
function fillUntilFull(target: Db): unknown {
  for (let n = 0; n < 10_000; n++) {
    try {
      raiseAlert(target, alert(n), n);
    } catch (error) {
      return error;
    }
  }
  throw new Error('the store never filled');
}

describe('the store space on a real SQLite file (PRAGMA max_page_count)', () => {
  it('starts able to write; the probe says so and leaves no row behind', () => {
    const store = opened();
    const space = createStoreSpace(store, () => 1_000);
    expect(space.view()).toEqual({ full: false, since: null });
    expect(space.probe()).toBe(true);
    const probes = store.prepare(`SELECT count(*) AS n FROM callback_log`).get() as { n: number };
    expect(probes.n).toBe(0);
  });

  it('becomes full on SQLITE_FULL, holds every write until room returns, then resumes', () => {
    const store = opened();
    let now = 5_000;
    const space = createStoreSpace(store, () => now);
    const changes: StoreSpaceChange[] = [];
    space.subscribe((change) => changes.push(change));

    limitStoreGrowth(store);
    const refused = fillUntilFull(store);
    expect(isStoreFullError(refused)).toBe(true);
    expect(space.noteFailure(refused)).toBe(true);
    expect(space.view()).toEqual({ full: true, since: 5_000 });

    // A small write that would fit in a half-empty page is held all the same while full.
    const before = alertCount(store);
    expect(() => space.transaction(() => raiseAlert(store, alert(-1), now))).toThrow(
      StoreFullError,
    );
    expect(alertCount(store)).toBe(before);
    expect(space.probe()).toBe(false);
    now = 9_000;
    expect(space.probe()).toBe(false);
    expect(changes).toEqual([{ kind: 'full', since: 5_000 }]);

    liftStoreGrowthLimit(store);
    const row = space.transaction(() => raiseAlert(store, alert(-2), now));
    expect(row?.message).toContain('alert -2');
    expect(space.view()).toEqual({ full: false, since: null });
    expect(changes).toEqual([
      { kind: 'full', since: 5_000 },
      { kind: 'recovered', since: 5_000, at: 9_000 },
    ]);
  });

  it('a guarded write that meets SQLITE_FULL keeps nothing and enters full mode', () => {
    const store = opened();
    const space = createStoreSpace(store, () => 7);
    limitStoreGrowth(store);
    fillUntilFull(store);
    const before = listOpenAlerts(store).length;
    expect(() =>
      space.transaction(() => {
        raiseAlert(store, { level: 'info', kind: 'first', message: 'fits' }, 7);
        for (let n = 0; n < 100; n++) raiseAlert(store, alert(n + 100_000), 7);
      }),
    ).toThrow(StoreFullError);
    expect(listOpenAlerts(store).length).toBe(before);
    expect(space.isFull()).toBe(true);
  });

  it('the probe finds room again once the limit is lifted', () => {
    const store = opened();
    const space = createStoreSpace(store, () => 1);
    limitStoreGrowth(store);
    fillUntilFull(store);
    expect(space.probe()).toBe(false);
    liftStoreGrowthLimit(store);
    expect(space.probe()).toBe(true);
    expect(space.isFull()).toBe(false);
  });

  it('other errors pass through untouched and do not mean full', () => {
    const store = opened();
    const space = createStoreSpace(store, () => 1);
    expect(() => space.transaction(() => store.exec('INSERT INTO nowhere VALUES (1)'))).toThrow(
      /no such table/,
    );
    expect(space.isFull()).toBe(false);
    expect(space.noteFailure(new Error('other'))).toBe(false);
  });
});
