import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';
import { listStandingAccounts } from './accounts-repo';
import { OPEN_ALERTS_SQL } from './alerts-repo';
import { createDbAtVersion } from '#support/database';

describe('migration 008-activity-indexes', () => {
  it('adds the three indexes of the Activity reads and keeps what they return', () => {
    const { db } = createDbAtVersion(7);
    const alert = db.prepare(
      `INSERT INTO alerts (created_at, level, kind, message, acknowledged_at)
       VALUES (?, 'warning', 'test', ?, ?)`,
    );
    alert.run(1, 'old and acknowledged', 5);
    alert.run(2, 'open', null);
    alert.run(3, 'newest open', null);
    const account = db.prepare(
      `INSERT INTO virtual_accounts (type, purpose, reference, amount_kobo, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 0, 0)`,
    );
    account.run('nonstatic', 'sale', 'S1', 100, 'active');
    account.run('static-flex', 'counter', 'C1', null, 'active');
    account.run('static', 'counter', 'C2', 500, 'failed_to_create');

    expect(migrate(db, migrations.slice(0, 8))).toBe(8);
    expect(schemaVersion(db)).toBe(8);
    const indexes = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name IN (?, ?, ?)`)
      .all('inflows_first_seen', 'alerts_open_id', 'virtual_accounts_counter_active');
    expect(indexes).toHaveLength(3);
    // The open-alerts read of this version (alerts.closed_by came with migration 012).
    const openAt8 = OPEN_ALERTS_SQL.replace(', closed_by AS closedBy', '');
    expect((db.prepare(openAt8).all() as { message: string }[]).map((row) => row.message)).toEqual([
      'newest open',
      'open',
    ]);
    expect(listStandingAccounts(db).map((row) => row.reference)).toEqual(['C1']);
  });
});
