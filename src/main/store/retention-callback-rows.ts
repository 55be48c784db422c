/**
 * The last step of a callback's retention (store/retention.ts has the first): a callback already
 * reduced and older than `callbackRowDays` is deleted when its inflow row holds everything
 * reconciliation reads from it: the same session id (the inflows' unique key, which is also what
 * turns a late duplicate of the callback into a duplicate), the same reference and amount, and a
 * sale. Its sale is found by its reference (engine/callbacks.ts looks the sale's reference up
 * first), so the inflow's sale must be the one with that reference. A callback without such an inflow (unreadable, rejected, a foreign shape,
 * a counter payment with no sale, one whose amount or reference differs) stays, reduced.
 *
 * Walked in id order from where the last pass stopped (migration 010's retention_cursors, under
 * `callback_rows`) up to the first callback too young (ids follow arrival); the kept rows of a batch that deleted any are repacked (repack.ts) so that
 * the pages the deleted rows shared with them are freed.
 */
import type { Db } from './database';
import { repackRows } from './repack';
import { PRUNED_BODY_PREFIX } from './retention';

const DAY_MS = 86_400_000;

/** The cursor's name in retention_cursors. */
export const CALLBACK_ROWS_CURSOR = 'callback_rows';

/** A reduced callback: retention.ts's marker, word for word. */
const REDUCED = `(c.headers = '{}' AND c.body LIKE '${PRUNED_BODY_PREFIX}%')`;

/** Whether the callback's inflow row holds all it holds (see the module's comment). */
const HELD_BY_INFLOW = `EXISTS (SELECT 1 FROM inflows i JOIN sales s ON s.id = i.sale_id
    WHERE i.session_id = c.hint_session_id
      AND i.external_reference = c.hint_reference
      AND i.amount_kobo = c.hint_amount_kobo
      AND s.reference = c.hint_reference)`;

const NEXT_ROWS_SQL = `SELECT c.id, c.received_at AS t, ${REDUCED} AS reduced,
    (${REDUCED} AND c.processed_at IS NOT NULL AND c.parse_status = 'ok' AND ${HELD_BY_INFLOW})
      AS held
  FROM callback_log c WHERE c.id > ? ORDER BY c.id LIMIT ?`;

export interface CallbackRowsProgress {
  readonly deleted: number;
  /** The last row looked at: the next batch of this pass starts after it. */
  readonly last: number;
  /** True once a row was not reduced yet: the stored cursor stays before it. */
  readonly blocked: boolean;
  readonly done: boolean;
}

export function callbackRowsCursor(db: Db): number {
  return (
    (db
      .prepare(`SELECT last_id FROM retention_cursors WHERE name = ?`)
      .pluck()
      .get(CALLBACK_ROWS_CURSOR) as number | undefined) ?? 0
  );
}

/** Deletes the held callbacks older than `cutoff` in the next batch after `from`, in one transaction. */
export function dropHeldCallbacks(
  db: Db,
  batch: {
    readonly cutoff: number;
    readonly from: number;
    readonly limit: number;
    readonly blocked: boolean;
  },
): CallbackRowsProgress {
  return db.transaction(() => {
    const rows = db.prepare(NEXT_ROWS_SQL).all(batch.from, batch.limit) as {
      id: number;
      t: number;
      reduced: number;
      held: number;
    }[];
    const remove = db.prepare(`DELETE FROM callback_log WHERE id = ?`);
    let deleted = 0;
    let lastDeleted = 0;
    let blocked = batch.blocked;
    let safe = batch.from;
    let young = false;
    for (const row of rows) {
      // Ids follow the time a callback arrived: from the first young one on, all are young.
      if (row.t >= batch.cutoff) {
        young = true;
        break;
      }
      // Not reduced yet (unprocessed, or unreadable and young): a later pass.
      if (row.reduced !== 1) {
        blocked = true;
        continue;
      }
      if (row.held === 1) {
        remove.run(row.id);
        deleted++;
        lastDeleted = row.id;
      }
      if (!blocked) safe = row.id;
    }
    const first = rows[0]?.id;
    if (deleted > 0 && first !== undefined) repackRows(db, 'callback_log', first, lastDeleted);
    if (!batch.blocked && safe !== batch.from) {
      db.prepare(
        `INSERT INTO retention_cursors (name, last_id) VALUES (?, ?)
         ON CONFLICT (name) DO UPDATE SET last_id = excluded.last_id`,
      ).run(CALLBACK_ROWS_CURSOR, safe);
    }
    return {
      deleted,
      last: rows.at(-1)?.id ?? batch.from,
      blocked,
      done: young || rows.length < batch.limit,
    };
  })();
}

/** Where a pass starts, and the rows' cutoff. */
export function callbackRowsStart(
  db: Db,
  callbackRowDays: number,
  now: number,
): { readonly cutoff: number; readonly from: number } {
  return { cutoff: now - callbackRowDays * DAY_MS, from: callbackRowsCursor(db) };
}
