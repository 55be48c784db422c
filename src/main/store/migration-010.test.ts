import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';
import { detailCursor } from './retention-detail';
import { createDbAtVersion } from '#support/database';

describe('migration 010-retention-cursors', () => {
  it('starts every table of a store made before it from its first row, one cursor per table', () => {
    const { db } = createDbAtVersion(9);
    expect(migrate(db, migrations.slice(0, 10))).toBe(10);
    expect(schemaVersion(db)).toBe(10);
    expect(detailCursor(db, 'sale_events')).toBe(0);
    const save = db.prepare(
      `INSERT INTO retention_cursors (name, last_id) VALUES (?, ?)
         ON CONFLICT (name) DO UPDATE SET last_id = excluded.last_id`,
    );
    save.run('sale_events', 40);
    save.run('sale_events', 90);
    expect(detailCursor(db, 'sale_events')).toBe(90);
    expect(() => save.run('inflows', -1)).toThrow(/CHECK/);
  });
});
