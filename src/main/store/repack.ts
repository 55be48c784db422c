/**
 * Giving back the bytes of rows made smaller in place. SQLite keeps a shrunken row where it
 * was, and the page keeps the bytes it freed: a page is merged with its neighbours only when it
 * is two thirds empty, and incremental vacuum gives back whole free pages only. So a store
 * whose old rows lose most of their bytes (retention.ts, retention-detail.ts) would not shrink
 * by a byte. Rewriting a run of consecutive rows (deleted, then inserted again with the same ids
 * and values, in one transaction) lays them out afresh: the pages they leave are freed, and the
 * new ones are filled before the next is started. Nothing a row holds changes, nor its id.
 */
import type { Db } from './database';

/** The tables whose shrunken rows are repacked (the names are ours, never the caller's). */
export type RepackTable = 'callback_log' | 'sale_events' | 'virtual_accounts' | 'inflows';

/**
 * Rewrites the rows of `table` with ids in [fromId, toId]: call inside a transaction. A table
 * other rows point at (a sale's account) needs foreign keys off around that transaction
 * (withoutForeignKeys): deleting a parent would look for its children in every sale and inflow,
 * and the same rows come back with the same ids before the commit.
 */
export function repackRows(db: Db, table: RepackTable, fromId: number, toId: number): number {
  if (toId < fromId) return 0;
  // Integers as BigInt: every value goes back exactly as it was read.
  const rows = db
    .prepare(`SELECT * FROM ${table} WHERE id BETWEEN ? AND ? ORDER BY id`)
    .safeIntegers(true)
    .all(fromId, toId) as Record<string, unknown>[];
  const first = rows[0];
  if (!first) return 0;
  const columns = Object.keys(first);
  db.prepare(`DELETE FROM ${table} WHERE id BETWEEN ? AND ?`).run(fromId, toId);
  const insert = db.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  for (const row of rows) insert.run(row);
  return rows.length;
}

/**
 * Runs `work` (a whole transaction) with foreign-key checks off, and turns them back on after.
 * SQLite ignores the pragma inside a transaction: call it outside one.
 */
export function withoutForeignKeys<T>(db: Db, work: () => T): T {
  const was = db.pragma('foreign_keys', { simple: true }) === 1;
  if (was) db.pragma('foreign_keys = OFF');
  try {
    return work();
  } finally {
    if (was) db.pragma('foreign_keys = ON');
  }
}
