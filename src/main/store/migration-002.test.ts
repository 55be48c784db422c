import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';
import { createDbAtVersion, explain } from '#support/database';

function columns(db: ReturnType<typeof createDbAtVersion>['db'], table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map(
    (row) => row.name,
  );
}

describe('migration 002-sync-and-reports', () => {
  it('adds the sync and listing columns to a version-1 database and keeps its rows', () => {
    const { db } = createDbAtVersion(1);
    db.prepare(
      `INSERT INTO sync_runs (mode, trigger, status, started_at, next_offset) VALUES ('full', 'user', 'complete', 5, 300)`,
    ).run();
    db.prepare(
      `INSERT INTO inflows (session_id, amount_kobo, status, source, last_source, first_seen_at, updated_at)
       VALUES ('000000000000000000000000000001', 150000, 'success', 'callback', 'callback', 0, 0)`,
    ).run();

    expect(migrate(db, migrations.slice(0, 2))).toBe(2);
    expect(schemaVersion(db)).toBe(2);
    expect(columns(db, 'sync_runs')).toEqual(
      expect.arrayContaining(['start_offset', 'listing_order', 'pending_offset', 'pending_since']),
    );
    expect(columns(db, 'inflows')).toEqual(expect.arrayContaining(['listed_at', 'listed_status']));
    expect(
      db.prepare('SELECT start_offset, next_offset, listing_order FROM sync_runs').get(),
    ).toEqual({
      start_offset: 0,
      next_offset: 300,
      listing_order: null,
    });
    expect(db.prepare('SELECT listed_at, amount_kobo FROM inflows').get()).toEqual({
      listed_at: null,
      amount_kobo: 150000,
    });
  });

  it('checks the new values and indexes paid sales by paid_at', () => {
    const { db } = createDbAtVersion(2);
    expect(() =>
      db
        .prepare(
          `INSERT INTO sync_runs (mode, trigger, status, started_at, listing_order) VALUES ('full', 'user', 'running', 0, 'sideways')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO inflows (session_id, amount_kobo, status, source, last_source, first_seen_at, updated_at, listed_status)
           VALUES ('000000000000000000000000000002', 1, 'success', 'listing', 'listing', 0, 0, 'maybe')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    const plan = explain(
      db,
      `SELECT till_id, COUNT(*) FROM sales WHERE paid_at >= ? AND paid_at < ? AND state IN ('paid', 'paid_late') GROUP BY till_id`,
      0,
      1,
    ).join();
    expect(plan).toContain('sales_paid');
  });
});
