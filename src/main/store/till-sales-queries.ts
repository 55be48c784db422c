/**
 * Sales of one till of the shop: what a paired counter may see of the hub's database (its own
 * till's sales). The range runs on sales_till_created (migration 007, covering: the index holds
 * the rowid), so a busy hub's other tills are never read.
 */
import type { Db } from './database';

export const TILL_SALE_IDS_SQL = `SELECT id FROM sales
  WHERE till_id = ? AND created_at >= ? AND created_at < ?
  ORDER BY created_at DESC LIMIT ?`;

/** Ids of one till's sales created in [from, to), newest first. */
export function listTillSaleIdsCreatedBetween(
  db: Db,
  tillId: string,
  from: number,
  to: number,
  limit = 500,
): number[] {
  return (db.prepare(TILL_SALE_IDS_SQL).all(tillId, from, to, limit) as { id: number }[]).map(
    (row) => row.id,
  );
}
