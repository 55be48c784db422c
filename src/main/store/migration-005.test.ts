import { describe, expect, it } from 'vitest';
import { CURRENT_ENTRIES_SQL, HISTORY_SQL } from './exception-resolutions-repo';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';
import { createDbAtVersion, explain } from '#support/database';

type TestDb = ReturnType<typeof createDbAtVersion>['db'];

function insert(
  db: TestDb,
  row: {
    key?: string;
    action: string;
    bankReference?: string | null;
    note?: string | null;
    by?: string;
    replacedAt?: number | null;
  },
): void {
  db.prepare(
    `INSERT INTO exception_resolutions (exception_key, action, bank_reference, note, recorded_by,
       recorded_at, replaced_at) VALUES (?, ?, ?, ?, ?, 1, ?)`,
  ).run(
    row.key ?? 'paid_late:sale:1',
    row.action,
    row.bankReference ?? null,
    row.note ?? null,
    row.by ?? 'owner',
    row.replacedAt ?? null,
  );
}

describe('migration 005-exception-resolutions', () => {
  it('adds the resolution log to a version 4 database and keeps its data', () => {
    const { db } = createDbAtVersion(4);
    db.prepare(
      `INSERT INTO inflows (session_id, amount_kobo, status, source, last_source, first_seen_at, updated_at)
       VALUES ('000000000000000000000000000001', 150000, 'success', 'callback', 'listing', 10, 77)`,
    ).run();

    expect(migrate(db, migrations.slice(0, 5))).toBe(5);
    expect(schemaVersion(db)).toBe(5);
    expect(db.prepare('SELECT COUNT(*) AS n FROM inflows').get()).toEqual({ n: 1 });
    expect(
      (
        db.prepare(`SELECT name FROM pragma_table_info('exception_resolutions')`).all() as {
          name: string;
        }[]
      ).map((column) => column.name),
    ).toEqual([
      'id',
      'exception_key',
      'action',
      'bank_reference',
      'note',
      'recorded_by',
      'recorded_at',
      'replaced_at',
    ]);
  });

  it('refuses a refund without a bank reference, "other" without a note, and unknown actions', () => {
    const { db } = createDbAtVersion(5);
    insert(db, { action: 'refunded', bankReference: 'FT2611220001' });
    insert(db, { key: 'k2', action: 'goods_given' });
    insert(db, { key: 'k3', action: 'other', note: 'Gave a voucher' });
    insert(db, { key: 'k4', action: 'reopened' });
    expect(() => insert(db, { key: 'k5', action: 'refunded' })).toThrow(/CHECK/);
    expect(() => insert(db, { key: 'k6', action: 'other' })).toThrow(/CHECK/);
    expect(() => insert(db, { key: 'k7', action: 'refunded', bankReference: '' })).toThrow(/CHECK/);
    expect(() => insert(db, { key: 'k8', action: 'forgotten' })).toThrow(/CHECK/);
    expect(() => insert(db, { key: 'k9', action: 'credited', by: '' })).toThrow(/CHECK/);
    expect(() => insert(db, { key: 'x'.repeat(161), action: 'credited' })).toThrow(/CHECK/);
  });

  it('allows one current entry per key and any number of replaced ones', () => {
    const { db } = createDbAtVersion(5);
    insert(db, { action: 'goods_given', replacedAt: 5 });
    insert(db, { action: 'credited', replacedAt: 6 });
    insert(db, { action: 'other', note: 'Settled by phone' });
    expect(() => insert(db, { action: 'goods_given' })).toThrow(/UNIQUE/);
    insert(db, { key: 'paid_late:sale:2', action: 'goods_given' });
  });

  it('reads the current entries and a key history through their indexes', () => {
    const { db } = createDbAtVersion(5);
    expect(explain(db, CURRENT_ENTRIES_SQL, '["a","b"]').join('\n')).toMatch(
      /SEARCH exception_resolutions USING INDEX exception_resolutions_current/,
    );
    expect(explain(db, HISTORY_SQL, 'a').join('\n')).toMatch(
      /SEARCH exception_resolutions USING INDEX exception_resolutions_history/,
    );
  });
});
