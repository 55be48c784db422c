import type { Migration } from '../migrate';

/**
 * Where retention has got to in each money table (store/retention-detail.ts): a pass reduces
 * the old detail of sale events, sale accounts and inflows in id order and starts the next pass
 * after the last row it finished, so a ten-year store is not read again every six hours. One row
 * per table, kept in the store so that a restart goes on where the last pass stopped.
 */
export const m010RetentionCursors: Migration = {
  version: 10,
  name: '010-retention-cursors',
  up(db) {
    db.exec(`
      CREATE TABLE retention_cursors (
        name TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 40),
        last_id INTEGER NOT NULL CHECK (last_id >= 0)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
