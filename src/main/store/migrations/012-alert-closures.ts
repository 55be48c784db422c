import type { Migration } from '../migrate';

/**
 * An alert keeps a record of what closed it: `closed_by` says what ('acknowledged by Ada', 'sale
 * paid', 'recorded: goods given'), beside `acknowledged_at` (when; still the open/closed flag
 * the open-alerts index reads). Alerts closed before this migration were all acknowledged by a
 * person. The open alerts of one sale are looked up when the sale changes (its alerts may close
 * with it): a partial index on sale_id answers that. The "still checking" alerts left open on
 * sales that were settled before alerts closed themselves are closed now, with that record.
 */
export const m012AlertClosures: Migration = {
  version: 12,
  name: '012-alert-closures',
  up(db) {
    db.exec(`
      ALTER TABLE alerts ADD COLUMN closed_by TEXT
        CHECK (closed_by IS NULL OR length(closed_by) BETWEEN 1 AND 120);
      UPDATE alerts SET closed_by = 'acknowledged' WHERE acknowledged_at IS NOT NULL;
      CREATE INDEX alerts_open_sale ON alerts (sale_id) WHERE acknowledged_at IS NULL;
      UPDATE alerts
        SET acknowledged_at = (SELECT updated_at FROM sales WHERE sales.id = alerts.sale_id),
          closed_by = (SELECT 'sale ' || replace(state, '_', ' ') FROM sales WHERE sales.id = alerts.sale_id)
        WHERE acknowledged_at IS NULL AND kind IN ('poll_cap', 'unknown_status')
          AND (SELECT state FROM sales WHERE sales.id = alerts.sale_id)
            IN ('paid', 'paid_late', 'expired', 'cancelled', 'failed_to_create');
    `);
  },
};
