import { describe, expect, it } from 'vitest';
import { createTestDb } from '#support/database';
import type { Db } from './database';
import { repackRows, withoutForeignKeys } from './repack';

/** 3,000 sale events of 3 sales with 200-byte details, on a real file with incremental vacuum. */
function eventsDb(): Db {
  const { db } = createTestDb();
  db.transaction(() => {
    for (let sale = 1; sale <= 3; sale++) {
      db.prepare(
        `INSERT INTO sales (id, amount_kobo, state, reference, created_at, updated_at)
         VALUES (?, 100, 'paid', ?, 0, 0)`,
      ).run(sale, `TT-${sale}`);
    }
    const event = db.prepare(
      `INSERT INTO sale_events (sale_id, at, from_state, to_state, cause, detail)
       VALUES (?, ?, 'creating', 'paid', 'test', ?)`,
    );
    for (let n = 0; n < 3_000; n++) event.run((n % 3) + 1, n, 'x'.repeat(200));
  })();
  return db;
}

const pages = (db: Db) => db.pragma('page_count', { simple: true }) as number;
const dump = (db: Db) =>
  db.prepare('SELECT id, sale_id, at, from_state, to_state, cause, detail FROM sale_events').all();

function shrinkAndVacuum(db: Db, repack: boolean): void {
  db.transaction(() => {
    db.prepare('UPDATE sale_events SET detail = NULL').run();
    if (repack) {
      for (let from = 1; from <= 3_000; from += 500) {
        repackRows(db, 'sale_events', from, from + 499);
      }
    }
  })();
  db.pragma('incremental_vacuum');
}

describe('repacking rows made smaller in place', () => {
  it('gives their bytes back, where shrinking alone gives none, and changes no row', () => {
    const alone = eventsDb();
    const before = pages(alone);
    shrinkAndVacuum(alone, false);
    // SQLite keeps the freed bytes inside the pages: the file does not shrink by much.
    expect(pages(alone)).toBeGreaterThan(before * 0.75);

    const repacked = eventsDb();
    shrinkAndVacuum(repacked, true);
    expect(pages(repacked)).toBeLessThan(before * 0.4);
    expect(dump(repacked)).toEqual(dump(alone));
    expect(repacked.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it("turns foreign keys off around a parent table's rewrite and back on after", () => {
    const db = eventsDb();
    const seen = withoutForeignKeys(db, () => db.pragma('foreign_keys', { simple: true }));
    expect(seen).toBe(0);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() =>
      withoutForeignKeys(db, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});
