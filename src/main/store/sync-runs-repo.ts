/**
 * The sync_runs rows of the transaction sync (sync/sync.ts): one row per run, with its counters
 * and the listing offset it got to, so that a run that dies between two pages can be resumed
 * from its saved offset. The report reads the latest and the last complete run on every build,
 * and every start-up marks the runs a dead process left running: those queries are named and
 * their plans tested (sync-runs-repo.test.ts).
 */
import type { Statement } from 'better-sqlite3';
import type { SyncRunView } from '#shared/views';
import type { Db } from './database';

export type SyncMode = SyncRunView['mode'];
export type SyncStatus = SyncRunView['status'];
/** The order the provider lists transactions in, as read from the dates it returned. */
export type ListingOrder = 'oldest_first' | 'newest_first' | 'unknown';

/**
 * A run as stored: what the app sees of it (SyncRunView, every field present) and where the
 * listing read stands, which only the sync needs.
 */
export interface SyncRunRow extends Required<SyncRunView> {
  readonly nextOffset: number;
  readonly startOffset: number;
  readonly listingOrder: ListingOrder | null;
  /** Lowest listing offset at which this run saw a row that was not final (pending/unknown). */
  readonly pendingOffset: number | null;
  /** Oldest provider date (epoch ms) of a row this run saw that was not final. */
  readonly pendingSince: number | null;
}

/** What one listing page moved a run on by (written with the page, in its transaction). */
export interface PageProgress {
  readonly runId: number;
  /** Offset the next page starts at; null keeps the saved one (a catch-up pass). */
  readonly nextOffset: number | null;
  readonly reportedCount: number;
  /** Unique rows this page added to the run's `collected`. */
  readonly collectedDelta: number;
  /** Unique unreadable rows this page added to the run's count of them; default 0. */
  readonly unreadableDelta?: number;
  readonly pendingOffset: number | null;
  readonly pendingSince: number | null;
  readonly listingOrder: ListingOrder | null;
  /** The provider's real page size as this page showed it (see SyncRunRow); null: no news. */
  readonly providerPageSize?: number | null;
}

const RUN_COLUMNS = `id, mode, trigger, status, started_at AS startedAt, finished_at AS finishedAt,
  reported_count AS reportedCount, collected, inserted, updated, unreadable,
  next_offset AS nextOffset, error,
  start_offset AS startOffset, listing_order AS listingOrder, pending_offset AS pendingOffset,
  pending_since AS pendingSince, page_limit AS pageLimit,
  provider_page_size AS providerPageSize`;

export const SYNC_RUN_SQL = `SELECT ${RUN_COLUMNS} FROM sync_runs WHERE id = ?`;
export const LATEST_SYNC_RUN_SQL = `SELECT ${RUN_COLUMNS} FROM sync_runs ORDER BY id DESC LIMIT 1`;
export const LAST_COMPLETE_SYNC_RUN_SQL = `SELECT ${RUN_COLUMNS} FROM sync_runs
  WHERE status = 'complete' ORDER BY id DESC LIMIT 1`;
export const MARK_STALE_RUNS_SQL = `UPDATE sync_runs SET status = 'interrupted', finished_at = ?,
    error = COALESCE(error, 'The app stopped while this sync was running.')
  WHERE status = 'running' AND id IS NOT ?`;
export const PAGE_PROGRESS_SQL = `UPDATE sync_runs SET next_offset = COALESCE(?, next_offset),
    reported_count = ?, collected = collected + ?, unreadable = unreadable + ?,
    inserted = inserted + ?, updated = updated + ?, pending_offset = ?, pending_since = ?,
    listing_order = COALESCE(?, listing_order),
    provider_page_size = COALESCE(MAX(provider_page_size, ?), provider_page_size, ?)
  WHERE id = ?`;

export function insertSyncRun(
  db: Db,
  run: {
    readonly mode: SyncMode;
    readonly trigger: string;
    readonly startOffset: number;
    readonly pageLimit?: number;
  },
  now: number,
): SyncRunRow {
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO sync_runs (mode, trigger, status, started_at, start_offset, next_offset,
         page_limit)
       VALUES (?, ?, 'running', ?, ?, ?, ?)`,
    )
    .run(run.mode, run.trigger, now, run.startOffset, run.startOffset, run.pageLimit ?? null);
  return getSyncRunOrThrow(db, Number(lastInsertRowid));
}

export function getSyncRun(db: Db, id: number): SyncRunRow | undefined {
  return db.prepare(SYNC_RUN_SQL).get(id) as SyncRunRow | undefined;
}

export function getSyncRunOrThrow(db: Db, id: number): SyncRunRow {
  const row = getSyncRun(db, id);
  if (!row) throw new Error(`Sync run ${id} does not exist`);
  return row;
}

export function latestSyncRun(db: Db): SyncRunRow | undefined {
  return db.prepare(LATEST_SYNC_RUN_SQL).get() as SyncRunRow | undefined;
}

export function lastCompleteSyncRun(db: Db): SyncRunRow | undefined {
  return db.prepare(LAST_COMPLETE_SYNC_RUN_SQL).get() as SyncRunRow | undefined;
}

/**
 * Runs still 'running' when no run is active in this process were cut short by a crash or a
 * power cut: they become 'interrupted' (and resumable). Returns how many there were.
 */
export function markStaleRunsInterrupted(db: Db, now: number, keepId?: number): number {
  return db.prepare(MARK_STALE_RUNS_SQL).run(now, keepId ?? null).changes;
}

/** A resumable run becomes 'running' again; its counters and saved offset carry on. */
export function reopenSyncRun(db: Db, id: number): SyncRunRow {
  db.prepare(
    `UPDATE sync_runs SET status = 'running', finished_at = NULL, error = NULL WHERE id = ?`,
  ).run(id);
  return getSyncRunOrThrow(db, id);
}

/** The run turned into a full read from offset 0 (its incremental assumption did not hold). */
export function restartSyncRunFromZero(db: Db, id: number): SyncRunRow {
  db.prepare(
    `UPDATE sync_runs SET mode = 'full', start_offset = 0, next_offset = 0, collected = 0,
       unreadable = 0, pending_offset = NULL, pending_since = NULL, listing_order = NULL
     WHERE id = ?`,
  ).run(id);
  return getSyncRunOrThrow(db, id);
}

export function finishSyncRun(
  db: Db,
  id: number,
  outcome: {
    readonly status: Exclude<SyncStatus, 'running'>;
    readonly error: string | null;
    readonly listingOrder?: ListingOrder | null;
  },
  now: number,
): SyncRunRow {
  db.prepare(
    `UPDATE sync_runs SET status = ?, error = ?, finished_at = ?,
       listing_order = COALESCE(?, listing_order)
     WHERE id = ?`,
  ).run(outcome.status, outcome.error, now, outcome.listingOrder ?? null, id);
  return getSyncRunOrThrow(db, id);
}

/** Compiled once per connection: it runs once per listing page. */
const progressStatements = new WeakMap<Db, Statement>();

/**
 * Adds one page's counts to its run and moves its saved offset on. The caller's transaction
 * covers it together with the page's rows, so a run resumes exactly where its rows end.
 */
export function recordPageProgress(
  db: Db,
  progress: PageProgress,
  written: { readonly inserted: number; readonly updated: number },
): void {
  let statement = progressStatements.get(db);
  if (!statement) {
    statement = db.prepare(PAGE_PROGRESS_SQL);
    progressStatements.set(db, statement);
  }
  statement.run(
    progress.nextOffset,
    progress.reportedCount,
    progress.collectedDelta,
    progress.unreadableDelta ?? 0,
    written.inserted,
    written.updated,
    progress.pendingOffset,
    progress.pendingSince,
    progress.listingOrder,
    progress.providerPageSize ?? null,
    progress.providerPageSize ?? null,
    progress.runId,
  );
}
