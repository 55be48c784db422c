import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';
import { listWatchedSales } from './sales-repo';
import { createDbAtVersion, explain } from '#support/database';

const GRACE_MS = 30 * 60_000;
const NOW = 10_000_000;

describe('migration 006-watched-sales', () => {
  it('indexes sales by state and expiry so that start-up finds the watched ones without a scan', () => {
    const { db } = createDbAtVersion(5);
    const insert = db.prepare(
      `INSERT INTO sales (amount_kobo, state, reference, expires_at, created_at, updated_at)
       VALUES (100, ?, ?, ?, 0, 0)`,
    );
    const rows: [string, number | null][] = [
      ['paid', NOW - 1_000], // settled: never watched
      ['awaiting_payment', NOW + 60_000], // open
      ['expired', NOW - 1_000], // inside the late grace
      ['expired', NOW - 2 * GRACE_MS], // past it
      ['cancelled', NOW - 60_000], // inside the grace
      ['creating', null], // interrupted mid-create
    ];
    rows.forEach(([state, expiresAt], i) => insert.run(state, `r${i}`, expiresAt));

    expect(migrate(db, migrations.slice(0, 6))).toBe(6);
    expect(schemaVersion(db)).toBe(6);
    expect(db.prepare('SELECT COUNT(*) AS n FROM sales').get()).toEqual({ n: rows.length });
    // The repo reads today's columns: bring the rest of the schema up before asking it.
    migrate(db, migrations);
    expect(listWatchedSales(db, NOW, GRACE_MS).map((sale) => sale.reference)).toEqual([
      'r1',
      'r2',
      'r4',
      'r5',
    ]);
    const plan = explain(
      db,
      `SELECT id FROM sales
       WHERE state IN ('creating', 'awaiting_payment', 'confirming', 'wrong_amount')
       UNION ALL
       SELECT id FROM sales INDEXED BY sales_late_watch
       WHERE state IN ('cancelled', 'expired') AND expires_at > ?
       ORDER BY id`,
      NOW - GRACE_MS,
    ).join('\n');
    expect(plan).toMatch(/SEARCH sales USING (COVERING )?INDEX sales_open/);
    expect(plan).toMatch(/SEARCH sales USING (COVERING )?INDEX sales_late_watch \(expires_at>\?\)/);
    expect(plan).not.toMatch(/SCAN sales/);
  });
});
