import { createHash } from 'node:crypto';
import { DEFAULT_CALLBACK_ROW_DAYS } from '#shared/settings-schema';
import type { Db } from './database';
import { repackRows } from './repack';

const DAY_MS = 86_400_000;

/**
 * What the store keeps, and for how long. Money records (sales, their events, accounts, inflows
 * and their status history, exception resolutions) are kept whole for ever: every report reads
 * them. The rest is reduced or dropped once it serves nobody:
 *
 * - A processed callback older than `callbackBodyDays` keeps what reconciliation needs: its time,
 *   method, content type, parse status, reference, session id, amount, status, outcome (the
 *   verdict) and processed time; its body becomes `sha256:<hex>` (the digest of the body it
 *   replaced) and its headers and sender address go. The sale is found by its reference.
 * - An unreadable callback (malformed, or naming no reference and no session id) keeps its body
 *   for `unreadableDays` at least (a person may have to show it to the provider), then the same.
 * - An unprocessed callback is never reduced: the next start reads it again.
 * - A reduced callback older than `callbackRowDays` is deleted when its inflow row holds all it
 *   holds (retention-callback-rows.ts); the others stay reduced.
 * - An acknowledged alert older than `alertDays` goes; an open alert stays until acknowledged.
 * - A finished sync run older than `syncRunDays` goes, except the newest `keepSyncRuns` and any
 *   run an unreadable listing row names.
 * - A resolved unreadable listing row older than `unreadableDays` goes; an open one stays.
 */
export interface RetentionRules {
  readonly callbackBodyDays: number;
  /** Past this age a reduced callback its inflow holds whole goes (retention-callback-rows.ts). */
  readonly callbackRowDays: number;
  readonly unreadableDays: number;
  readonly alertDays: number;
  readonly syncRunDays: number;
  readonly keepSyncRuns: number;
}

export const DEFAULT_RETENTION: RetentionRules = {
  callbackBodyDays: 90,
  callbackRowDays: DEFAULT_CALLBACK_ROW_DAYS,
  unreadableDays: 365,
  alertDays: 365,
  syncRunDays: 90,
  keepSyncRuns: 100,
};

/** The rules with the shop's settings, the other ages never shorter than the callback bodies'. */
export function retentionRules(
  callbackBodyDays: number,
  callbackRowDays: number = DEFAULT_RETENTION.callbackRowDays,
): RetentionRules {
  return {
    ...DEFAULT_RETENTION,
    callbackBodyDays,
    callbackRowDays: Math.max(callbackRowDays, callbackBodyDays),
    unreadableDays: Math.max(DEFAULT_RETENTION.unreadableDays, callbackBodyDays),
    alertDays: Math.max(DEFAULT_RETENTION.alertDays, callbackBodyDays),
    syncRunDays: Math.max(DEFAULT_RETENTION.syncRunDays, callbackBodyDays),
  };
}

/** The marker of a reduced callback body: the digest of the body it replaced. */
export const PRUNED_BODY_PREFIX = 'sha256:';

/** The unreadable-callback condition of migration 003's partial index, word for word. */
const UNREADABLE = `(parse_status = 'malformed'
      OR (parse_status = 'ok' AND hint_reference IS NULL AND hint_session_id IS NULL))`;

/**
 * One batch of callback bodies to reduce: processed, old enough by their rule, not reduced yet.
 * Walks by id (the order they arrived in), so a batch reads only the rows it changes.
 */
const CALLBACKS_TO_REDUCE_SQL = `SELECT id, body FROM callback_log
  WHERE id > ? AND received_at < ? AND processed_at IS NOT NULL
    AND NOT (headers = '{}' AND body LIKE '${PRUNED_BODY_PREFIX}%')
    AND (NOT ${UNREADABLE} OR received_at < ?)
  ORDER BY id LIMIT ?`;

export interface RetentionProgress {
  /** The last callback id looked at; the next batch starts after it. */
  readonly callbackCursor: number;
  /**
   * Below this id no callback can become due later (reduced, or received before every id that
   * is waiting: an unprocessed or unreadable one, or one too young): where a later pass starts.
   */
  readonly safeCursor: number;
  readonly reduced: number;
  /** True when this batch reached the end of what the rules allow now. */
  readonly done: boolean;
}

/** Reduces up to `limit` callback bodies, in one transaction. */
export function reduceCallbackBodies(
  db: Db,
  rules: RetentionRules,
  now: number,
  cursor: number,
  limit: number,
): RetentionProgress {
  const bodyCutoff = now - rules.callbackBodyDays * DAY_MS;
  const unreadableCutoff = Math.min(bodyCutoff, now - rules.unreadableDays * DAY_MS);
  return db.transaction(() => {
    const rows = db
      .prepare(CALLBACKS_TO_REDUCE_SQL)
      .all(cursor, bodyCutoff, unreadableCutoff, limit) as { id: number; body: string }[];
    const reduce = db.prepare(
      `UPDATE callback_log SET body = ?, headers = '{}', remote_address = NULL WHERE id = ?`,
    );
    for (const row of rows) {
      const digest = createHash('sha256').update(row.body, 'utf8').digest('hex');
      reduce.run(`${PRUNED_BODY_PREFIX}${digest}`, row.id);
    }
    // The reduced rows give their bytes back (repack.ts): a reduced callback keeps a third.
    const first = rows[0];
    if (first) repackRows(db, 'callback_log', first.id, rows.at(-1)?.id ?? first.id);
    const last = rows.at(-1)?.id ?? cursor;
    const waiting = db
      .prepare(
        `SELECT MIN(id) FROM callback_log WHERE id > ? AND id <= ?
           AND NOT (headers = '{}' AND body LIKE '${PRUNED_BODY_PREFIX}%')`,
      )
      .pluck()
      .get(cursor, last) as number | null;
    return {
      callbackCursor: last,
      safeCursor: waiting === null ? last : waiting - 1,
      reduced: rows.length,
      done: rows.length < limit,
    };
  })();
}

/** Drops old acknowledged alerts, old resolved unreadable rows, then old sync runs; counts. */
export function dropExpiredRows(
  db: Db,
  rules: RetentionRules,
  now: number,
  limit: number,
): { readonly alerts: number; readonly unreadable: number; readonly syncRuns: number } {
  return db.transaction(() => {
    const alerts = db
      .prepare(
        `DELETE FROM alerts WHERE id IN (SELECT id FROM alerts
           WHERE acknowledged_at IS NOT NULL AND acknowledged_at < ? ORDER BY id LIMIT ?)`,
      )
      .run(now - rules.alertDays * DAY_MS, limit).changes;
    const unreadable = db
      .prepare(
        `DELETE FROM unreadable_listing_rows WHERE id IN (SELECT id FROM unreadable_listing_rows
           WHERE resolved_at IS NOT NULL AND resolved_at < ? ORDER BY id LIMIT ?)`,
      )
      .run(now - rules.unreadableDays * DAY_MS, limit).changes;
    const syncRuns = db
      .prepare(
        `DELETE FROM sync_runs WHERE id IN (SELECT r.id FROM sync_runs r
           WHERE r.status IN ('complete', 'failed', 'cancelled')
             AND r.started_at < ?
             AND r.id < (SELECT COALESCE(MIN(id), 0) FROM
               (SELECT id FROM sync_runs ORDER BY id DESC LIMIT ?))
             AND NOT EXISTS (SELECT 1 FROM unreadable_listing_rows u
               WHERE u.first_run_id = r.id OR u.last_run_id = r.id OR u.resolved_run_id = r.id)
           ORDER BY r.id LIMIT ?)`,
      )
      .run(now - rules.syncRunDays * DAY_MS, rules.keepSyncRuns, limit).changes;
    return { alerts, unreadable, syncRuns };
  })();
}
