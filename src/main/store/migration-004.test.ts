import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';
import { createDbAtVersion, explain } from '#support/database';

describe('migration 004-shop-attribution', () => {
  it('indexes the existing successful inflows for the shop view, and keeps every row', () => {
    const { db } = createDbAtVersion(3);
    const insert = db.prepare(
      `INSERT INTO inflows (session_id, external_reference, amount_kobo, status, occurred_at,
         source, last_source, first_seen_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'listing', 'listing', 0, 0)`,
    );
    insert.run(
      '1'.padStart(30, '0'),
      'TILLA-20261122090500-K3J9QF-0001-X7Q2M9AB',
      1000,
      'success',
      50,
    );
    insert.run(
      '2'.padStart(30, '0'),
      'TILLB-20261122090500-K3J9QF-0001-X7Q2M9AB',
      2000,
      'failed',
      60,
    );

    expect(migrate(db, migrations.slice(0, 4))).toBe(4);
    expect(schemaVersion(db)).toBe(4);
    expect(db.prepare('SELECT COUNT(*) AS n FROM inflows').get()).toEqual({ n: 2 });
    // The partial index holds the successful inflow only, and reads it back in date order.
    const indexed = db
      .prepare(
        `SELECT external_reference AS reference FROM inflows INDEXED BY inflows_success_attribution
         WHERE status = 'success' AND occurred_at >= 0`,
      )
      .all();
    expect(indexed).toEqual([{ reference: 'TILLA-20261122090500-K3J9QF-0001-X7Q2M9AB' }]);
    const plan = explain(
      db,
      `SELECT external_reference, sale_id, account_id, amount_kobo FROM inflows
       WHERE occurred_at >= ? AND occurred_at < ? AND status = 'success'`,
      0,
      100,
    ).join('\n');
    expect(plan).toMatch(/SEARCH inflows USING COVERING INDEX inflows_success_attribution/);
  });
});
