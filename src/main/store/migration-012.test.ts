import { describe, expect, it } from 'vitest';
import { createDbAtVersion, explain } from '#support/database';
import { getAlert, listOpenAlerts } from './alerts-repo';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';

describe('migration 012-alert-closures', () => {
  it('records what closed each alert, and closes the "still checking" alerts of settled sales', () => {
    const { db } = createDbAtVersion(11);
    const sale = db.prepare(
      `INSERT INTO sales (amount_kobo, state, reference, created_at, updated_at)
       VALUES (100, ?, ?, 1, ?)`,
    );
    const paid = Number(sale.run('paid', 'R-PAID', 50).lastInsertRowid);
    const open = Number(sale.run('awaiting_payment', 'R-OPEN', 60).lastInsertRowid);
    const alert = db.prepare(
      `INSERT INTO alerts (created_at, level, kind, sale_id, message, acknowledged_at)
       VALUES (2, 'warning', ?, ?, ?, ?)`,
    );
    const acknowledged = Number(alert.run('amount_mismatch', paid, 'read', 9).lastInsertRowid);
    const stale = Number(alert.run('poll_cap', paid, 'ask for the receipt', null).lastInsertRowid);
    const waiting = Number(alert.run('poll_cap', open, 'still open', null).lastInsertRowid);
    const lateOpen = Number(alert.run('paid_late', paid, 'give goods', null).lastInsertRowid);

    expect(migrate(db, migrations.slice(0, 12))).toBe(12);
    expect(schemaVersion(db)).toBe(12);
    expect(getAlert(db, acknowledged)).toMatchObject({
      acknowledgedAt: 9,
      closedBy: 'acknowledged',
    });
    expect(getAlert(db, stale)).toMatchObject({ acknowledgedAt: 50, closedBy: 'sale paid' });
    expect(listOpenAlerts(db).map((row) => row.id)).toEqual([lateOpen, waiting]);
    expect(
      explain(db, `SELECT id FROM alerts WHERE acknowledged_at IS NULL AND sale_id = ?`, open),
    ).toEqual(['SEARCH alerts USING INDEX alerts_open_sale (sale_id=?)']);
    expect(() => db.prepare(`UPDATE alerts SET closed_by = '' WHERE id = ?`).run(waiting)).toThrow(
      /CHECK/,
    );
  });
});
