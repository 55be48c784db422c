/**
 * Retention of the money tables' detail that no report, no reconciliation and no sync reads
 * (store/retention.ts has the callbacks, alerts and sync runs). Rows are never deleted and no
 * figure moves: only columns that repeat what another column or table already holds, or that
 * served one moment long past, are cleared once the row is older than the set age
 * (`callbackBodyDays`, the same age as the callback bodies):
 *
 * - `sale_events.detail` (the JSON of the session id and provider date that moved the sale:
 *   the inflow row holds both) and `sale_events.from_state` (the previous event's `to_state`).
 *   Reports read `to_state` and `at` only (the state of a sale at a moment);
 * - `virtual_accounts.callback_url` of a sale's one-off account (the record of the address given
 *   to the provider when it was made, its secret path token fingerprinted since migration 011;
 *   only a sale still watched compares it, and no sale is watched that long); standing accounts
 *   keep theirs;
 * - `inflows.provider_date` where `occurred_at` holds the same moment (every report, the list
 *   and the CSV read `occurred_at`). A later sync that lists the row again writes it back
 *   (COALESCE), which changes nothing either.
 *
 * Each table is walked in id order from where the last pass stopped (migration 010's
 * retention_cursors), a batch per transaction, so a pass reads the rows it changes and the
 * set age's young rows, not the years before.
 */
import type { Db } from './database';
import { repackRows, withoutForeignKeys, type RepackTable } from './repack';

const DAY_MS = 86_400_000;

interface DetailRule {
  /** The cursor's name in retention_cursors, and the table. */
  readonly name: RepackTable;
  /**
   * Whether a batch that cleared detail is rewritten to give its bytes back (repack.ts). Not the
   * inflows: 21 bytes a row do not pay for rewriting seven indexes.
   */
  readonly repack: boolean;
  /** Other tables' rows point at its rows (foreign keys): repacked with the checks off. */
  readonly parent: boolean;
  /** The next rows after a cursor: id, the row's age column as t, and whether it has detail. */
  readonly select: string;
  /** Clears one row's detail (parameter: its id). */
  readonly clear: string;
}

export const DETAIL_RULES: readonly DetailRule[] = [
  {
    name: 'sale_events',
    repack: true,
    parent: false,
    select: `SELECT id, at AS t, (detail IS NOT NULL OR from_state IS NOT NULL) AS has
      FROM sale_events WHERE id > ? ORDER BY id LIMIT ?`,
    clear: `UPDATE sale_events SET detail = NULL, from_state = NULL WHERE id = ?`,
  },
  {
    name: 'virtual_accounts',
    repack: true,
    parent: true,
    select: `SELECT id, created_at AS t, (purpose = 'sale' AND callback_url IS NOT NULL) AS has
      FROM virtual_accounts WHERE id > ? ORDER BY id LIMIT ?`,
    clear: `UPDATE virtual_accounts SET callback_url = NULL WHERE id = ?`,
  },
  {
    name: 'inflows',
    repack: false,
    parent: true,
    select: `SELECT id, first_seen_at AS t,
        (provider_date IS NOT NULL AND occurred_at IS NOT NULL) AS has
      FROM inflows WHERE id > ? ORDER BY id LIMIT ?`,
    clear: `UPDATE inflows SET provider_date = NULL WHERE id = ?`,
  },
];

export function detailCursor(db: Db, name: string): number {
  return (
    (db.prepare(`SELECT last_id FROM retention_cursors WHERE name = ?`).pluck().get(name) as
      number | undefined) ?? 0
  );
}

export interface DetailProgress {
  readonly reduced: number;
  /** The last row looked at: the next batch of this pass starts after it. */
  readonly last: number;
  /** True when a row of this batch was too young: the stored cursor stays before it. */
  readonly blocked: boolean;
  /** True at the table's end. */
  readonly done: boolean;
}

/**
 * Reduces the rows older than the set age in the next batch after `from`, in one transaction.
 * Ids follow time closely but not exactly (a payment the listing brings in late is first seen
 * late), so a young row does not end the walk: the pass reads on to the table's end (the set
 * age's rows, a few hundred thousand at most), while the stored cursor, where the next pass
 * starts, stays before the first young row.
 */
export function reduceOldDetail(
  db: Db,
  rule: DetailRule,
  batch: {
    readonly cutoff: number;
    readonly from: number;
    readonly limit: number;
    readonly blocked: boolean;
  },
): DetailProgress {
  const run = () =>
    db.transaction(() => {
      const rows = db.prepare(rule.select).all(batch.from, batch.limit) as {
        id: number;
        t: number;
        has: number;
      }[];
      const clear = db.prepare(rule.clear);
      let reduced = 0;
      let blocked = batch.blocked;
      let safe = batch.from;
      for (const row of rows) {
        if (row.t >= batch.cutoff) {
          blocked = true;
          continue;
        }
        if (row.has === 1) {
          clear.run(row.id);
          reduced++;
        }
        if (!blocked) safe = row.id;
      }
      const first = rows[0]?.id;
      const last = rows.at(-1)?.id;
      if (rule.repack && reduced > 0 && first !== undefined && last !== undefined) {
        repackRows(db, rule.name, first, last);
      }
      if (!batch.blocked && safe !== batch.from) {
        db.prepare(
          `INSERT INTO retention_cursors (name, last_id) VALUES (?, ?)
           ON CONFLICT (name) DO UPDATE SET last_id = excluded.last_id`,
        ).run(rule.name, safe);
      }
      return {
        reduced,
        last: rows.at(-1)?.id ?? batch.from,
        blocked,
        done: rows.length < batch.limit,
      };
    })();
  return rule.repack && rule.parent ? withoutForeignKeys(db, run) : run();
}

/** Where a pass starts in a rule's table, and the set age's cutoff. */
export function detailStart(
  db: Db,
  rule: DetailRule,
  callbackBodyDays: number,
  now: number,
): { readonly cutoff: number; readonly from: number } {
  return { cutoff: now - callbackBodyDays * DAY_MS, from: detailCursor(db, rule.name) };
}
