import { describe, expect, it } from 'vitest';
import { createDbAtVersion, explain } from '#support/database';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';
import { getSaleOrThrow } from './sales-repo';

describe('migration 013-outage-sales', () => {
  it('lets a sale be unconfirmed and an account be the outage one, keeping every row and check', () => {
    const { db } = createDbAtVersion(12);
    const insertSale = db.prepare(
      `INSERT INTO sales (amount_kobo, state, reference, created_at, updated_at)
       VALUES (100, ?, ?, 1, 1)`,
    );
    const old = Number(insertSale.run('paid', 'R-OLD').lastInsertRowid);
    db.prepare(
      `INSERT INTO sale_events (sale_id, at, to_state, cause) VALUES (?, 1, 'paid', 'seed')`,
    ).run(old);
    expect(() => insertSale.run('unconfirmed', 'R-EARLY')).toThrow(/CHECK/);

    expect(migrate(db, migrations.slice(0, 13))).toBe(13);
    expect(schemaVersion(db)).toBe(13);
    expect(getSaleOrThrow(db, old)).toMatchObject({ state: 'paid', amountDueKobo: null });
    const outage = Number(insertSale.run('unconfirmed', 'R-OUTAGE').lastInsertRowid);
    db.prepare(`UPDATE sales SET amount_due_kobo = 137 WHERE id = ?`).run(outage);
    expect(getSaleOrThrow(db, outage)).toMatchObject({ state: 'unconfirmed', amountDueKobo: 137 });
    // Widened, not dropped: an unknown state, purpose or a zero amount due is still refused.
    expect(() => insertSale.run('lost', 'R-BAD')).toThrow(/CHECK/);
    expect(() =>
      db.prepare(`UPDATE sales SET amount_due_kobo = 0 WHERE id = ?`).run(outage),
    ).toThrow(/CHECK/);
    const account = db.prepare(
      `INSERT INTO virtual_accounts (type, purpose, reference, status, created_at, updated_at)
       VALUES ('static-flex', ?, ?, 'active', 1, 1)`,
    );
    expect(() => account.run('outage', 'A-OUT')).not.toThrow();
    expect(() => account.run('other', 'A-BAD')).toThrow(/CHECK/);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(
      explain(db, `SELECT id FROM sales WHERE state = 'unconfirmed' AND amount_due_kobo = ?`, 137),
    ).toEqual(['SEARCH sales USING COVERING INDEX sales_unconfirmed (amount_due_kobo=?)']);
  });
});
