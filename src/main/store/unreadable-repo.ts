/**
 * What the provider sent that the till could not read, kept rather than lost: listing rows that
 * failed their schema (set aside by the sync, one row per distinct raw text) and callback bodies
 * that were neither JSON nor a form, or held no reference or session id (kept raw in
 * callback_log by the webhook listener).
 */
import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

/** One unreadable listing row as the sync met it (the provider client's UnreadableListingRow). */
export interface UnreadableRowInput {
  readonly position: number;
  /** JSON text of the row, at most 4096 characters. */
  readonly raw: string;
  /** Value-free. */
  readonly problem: string;
}

export interface UnreadableRow {
  readonly id: number;
  readonly fingerprint: string;
  readonly raw: string;
  readonly problem: string;
  /** Where the listing last had it. */
  readonly position: number;
  readonly firstSeenAt: number;
  readonly lastSeenAt: number;
  readonly firstRunId: number;
  readonly lastRunId: number;
  readonly resolvedAt: number | null;
  readonly resolvedRunId: number | null;
}

export interface ProblemCount {
  readonly problem: string;
  readonly count: number;
  readonly firstSeenAt: number;
}

export interface UnreadableCallbackCount {
  /** 'malformed' (neither JSON nor a form) or 'ok' (read, but nothing ties it to a payment). */
  readonly parseStatus: string;
  readonly contentType: string | null;
  readonly count: number;
  readonly firstAt: number;
}

/** The key of an unreadable row: its raw text is all there is to tell two of them apart. */
export function unreadableFingerprint(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

const ROW_COLUMNS = `id, fingerprint, raw, problem, position, first_seen_at AS firstSeenAt,
  last_seen_at AS lastSeenAt, first_run_id AS firstRunId, last_run_id AS lastRunId,
  resolved_at AS resolvedAt, resolved_run_id AS resolvedRunId`;

/** Open (unresolved) unreadable rows by problem; reads only the partial index. */
export const OPEN_UNREADABLE_BY_PROBLEM_SQL = `SELECT problem, COUNT(*) AS count,
    MIN(first_seen_at) AS firstSeenAt
  FROM unreadable_listing_rows WHERE resolved_at IS NULL GROUP BY problem ORDER BY problem`;

/**
 * Callback bodies of a time range that could not be read, by parse status and content type:
 * neither JSON nor a form, or readable with no reference or session id in them. The condition
 * is the one of the partial index callback_log_unreadable (migration 003), word for word, so
 * that the index serves it.
 */
export const UNREADABLE_CALLBACKS_SQL = `SELECT parse_status AS parseStatus,
    content_type AS contentType, COUNT(*) AS count, MIN(received_at) AS firstAt
  FROM callback_log
  WHERE (parse_status = 'malformed'
      OR (parse_status = 'ok' AND hint_reference IS NULL AND hint_session_id IS NULL))
    AND received_at >= ? AND received_at < ?
  GROUP BY parse_status, content_type`;

interface Statements {
  readonly upsert: Statement;
}

const statementCache = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let cached = statementCache.get(db);
  if (!cached) {
    cached = {
      // Seen again: the newest sighting, and open again if a sync had resolved it.
      upsert: db.prepare(
        `INSERT INTO unreadable_listing_rows (fingerprint, raw, problem, position, first_seen_at,
           last_seen_at, first_run_id, last_run_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (fingerprint) DO UPDATE SET problem = excluded.problem,
           position = excluded.position, last_seen_at = excluded.last_seen_at,
           last_run_id = excluded.last_run_id, resolved_at = NULL, resolved_run_id = NULL`,
      ),
    };
    statementCache.set(db, cached);
  }
  return cached;
}

/** Keeps the unreadable rows of one page; runs inside the page's transaction. */
export function recordUnreadableRows(
  db: Db,
  rows: readonly UnreadableRowInput[],
  runId: number,
  now: number,
): void {
  const { upsert } = statements(db);
  for (const row of rows) {
    upsert.run(
      unreadableFingerprint(row.raw),
      row.raw,
      row.problem,
      row.position,
      now,
      now,
      runId,
      runId,
    );
  }
}

/**
 * After `runId` read the listing from offset `fromPosition` to its end: every open row at or
 * after that offset the run did not meet is no longer served unreadable (the provider fixed
 * it, and that run took it in). Only a listing whose rows keep their offsets (a full read, or
 * oldest first) may be judged this way. Returns how many were resolved.
 */
export function resolveUnseenUnreadableRows(
  db: Db,
  runId: number,
  now: number,
  fromPosition = 0,
): number {
  return db
    .prepare(
      `UPDATE unreadable_listing_rows SET resolved_at = ?, resolved_run_id = ?
       WHERE resolved_at IS NULL AND last_run_id <> ? AND position >= ?`,
    )
    .run(now, runId, runId, fromPosition).changes;
}

/** Where the open unreadable rows were last met in the listing. */
export function openUnreadablePositions(db: Db): Set<number> {
  const rows = db
    .prepare(`SELECT position FROM unreadable_listing_rows WHERE resolved_at IS NULL`)
    .all() as { position: number }[];
  return new Set(rows.map((row) => row.position));
}

export function openUnreadableByProblem(db: Db): ProblemCount[] {
  return db.prepare(OPEN_UNREADABLE_BY_PROBLEM_SQL).all() as ProblemCount[];
}

export function listUnreadableRows(
  db: Db,
  options: { readonly open?: boolean } = {},
): UnreadableRow[] {
  const where = options.open ? 'WHERE resolved_at IS NULL' : '';
  return db
    .prepare(`SELECT ${ROW_COLUMNS} FROM unreadable_listing_rows ${where} ORDER BY id`)
    .all() as UnreadableRow[];
}

export function unreadableCallbacks(
  db: Db,
  fromMs: number,
  toMs: number,
): UnreadableCallbackCount[] {
  return db.prepare(UNREADABLE_CALLBACKS_SQL).all(fromMs, toMs) as UnreadableCallbackCount[];
}
