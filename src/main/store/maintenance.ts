import type { Db } from './database';
import { dropExpiredRows, reduceCallbackBodies, type RetentionRules } from './retention';
import { callbackRowsStart, dropHeldCallbacks } from './retention-callback-rows';
import { DETAIL_RULES, detailStart, reduceOldDetail } from './retention-detail';

/** PRAGMA auto_vacuum's value for INCREMENTAL. */
const AUTO_VACUUM_INCREMENTAL = 2;

export interface MaintenanceOptions {
  readonly rules: RetentionRules;
  readonly now: () => number;
  /** Rows per transaction: small, so a sale's write never waits long behind one. */
  readonly batchRows?: number;
  /** Pages given back to the file system per step of the incremental vacuum. */
  readonly vacuumPages?: number;
  /** Between two batches: lets the till's other work run (a turn of the event loop, or more). */
  readonly pause?: () => Promise<void>;
  /** Asked before every batch: true stops the pass where it is (closing, or the disk is full). */
  readonly stopped?: () => boolean;
  /** Where the last pass left the callbacks (its report's callbackCursor); 0 reads them all. */
  readonly callbackCursor?: number;
}

export interface MaintenanceReport {
  readonly reducedCallbacks: number;
  /** Reduced callbacks past `callbackRowDays` deleted, their inflow holding them whole. */
  readonly droppedCallbacks: number;
  /** Money rows whose old detail was cleared (retention-detail.ts), all tables together. */
  readonly reducedDetail: number;
  /** The next pass may start after this callback id: the ones before it are reduced or kept. */
  readonly callbackCursor: number;
  readonly droppedAlerts: number;
  readonly droppedUnreadable: number;
  readonly droppedSyncRuns: number;
  readonly pagesReturned: number;
  readonly walPagesLeft: number;
  readonly stoppedEarly: boolean;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether the file gives freed pages back (PRAGMA incremental_vacuum works on it). */
export function hasIncrementalVacuum(db: Db): boolean {
  return db.pragma('auto_vacuum', { simple: true }) === AUTO_VACUUM_INCREMENTAL;
}

/**
 * The one-off change of a store made before auto_vacuum was INCREMENTAL: openDatabase asks for
 * it on every open, and SQLite applies it at the next VACUUM. The VACUUM rewrites the whole file
 * (it needs as much free disk as the store, and holds the writer until done), so the runtime
 * runs it once, when no sale is open and the disk is not full. Not in a migration: VACUUM cannot
 * run inside the migrations' transaction.
 */
export function convertToIncrementalVacuum(db: Db): boolean {
  if (hasIncrementalVacuum(db)) return false;
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
  return hasIncrementalVacuum(db);
}

/**
 * One maintenance pass, in small batches with a pause between them: the retention rules
 * (retention.ts), then the freed pages given back to the file system (incremental vacuum, when
 * the file has it), then a checkpoint that truncates the WAL. The till keeps selling meanwhile:
 * every batch is its own short transaction.
 */
export async function runMaintenance(
  db: Db,
  options: MaintenanceOptions,
): Promise<MaintenanceReport> {
  const tally: Tally = {
    reducedCallbacks: 0,
    droppedCallbacks: 0,
    reducedDetail: 0,
    callbackCursor: options.callbackCursor ?? 0,
    droppedAlerts: 0,
    droppedUnreadable: 0,
    droppedSyncRuns: 0,
    pagesReturned: 0,
  };
  const steps = { pause: options.pause ?? nextTurn, stopped: options.stopped ?? (() => false) };
  const done =
    (await reduceCallbacks(db, options, tally, steps)) &&
    (await dropCallbacks(db, options, tally, steps)) &&
    (await reduceDetail(db, options, tally, steps)) &&
    (await dropExpired(db, options, tally, steps)) &&
    (await giveSpaceBack(db, options, tally, steps));
  if (!done) return { ...tally, walPagesLeft: -1, stoppedEarly: true };
  const checkpoint = db.pragma('wal_checkpoint(TRUNCATE)') as { log: number }[];
  return { ...tally, walPagesLeft: checkpoint[0]?.log ?? 0, stoppedEarly: false };
}

/** What a pass has done so far: the report without its closing fields, counted as it goes. */
type Tally = {
  -readonly [
    K in Exclude<keyof MaintenanceReport, 'walPagesLeft' | 'stoppedEarly'>
  ]: MaintenanceReport[K];
};

interface Steps {
  readonly pause: () => Promise<void>;
  readonly stopped: () => boolean;
}

/** Callback bodies past their age, batch by batch. False when stopped before the end. */
async function reduceCallbacks(
  db: Db,
  options: MaintenanceOptions,
  tally: Tally,
  steps: Steps,
): Promise<boolean> {
  let cursor = tally.callbackCursor;
  // Once a callback must wait (unprocessed, or unreadable and young), later passes start there.
  let blocked = false;
  for (;;) {
    if (steps.stopped()) return false;
    const step = reduceCallbackBodies(
      db,
      options.rules,
      options.now(),
      cursor,
      options.batchRows ?? 500,
    );
    tally.reducedCallbacks += step.reduced;
    cursor = step.callbackCursor;
    if (!blocked) tally.callbackCursor = step.safeCursor;
    if (step.safeCursor < step.callbackCursor) blocked = true;
    await steps.pause();
    if (step.done) return true;
  }
}

/** One batch of a walk from a stored cursor (retention-detail.ts, retention-callback-rows.ts). */
interface CursorBatch {
  readonly cutoff: number;
  readonly from: number;
  readonly limit: number;
  readonly blocked: boolean;
}

/**
 * Walks a table from `start` batch by batch with `batch` until its end, adding each batch's
 * count to the tally with `count`. False when stopped before the end.
 */
async function walkFromCursor(
  start: { readonly cutoff: number; readonly from: number },
  options: MaintenanceOptions,
  steps: Steps,
  batch: (next: CursorBatch) => { last: number; blocked: boolean; done: boolean },
): Promise<boolean> {
  let from = start.from;
  let blocked = false;
  for (;;) {
    if (steps.stopped()) return false;
    const step = batch({ cutoff: start.cutoff, from, limit: options.batchRows ?? 500, blocked });
    from = step.last;
    blocked = step.blocked;
    await steps.pause();
    if (step.done) return true;
  }
}

/** Reduced callbacks past their row age that their inflow holds, batch by batch. */
function dropCallbacks(
  db: Db,
  options: MaintenanceOptions,
  tally: Tally,
  steps: Steps,
): Promise<boolean> {
  const start = callbackRowsStart(db, options.rules.callbackRowDays, options.now());
  return walkFromCursor(start, options, steps, (next) => {
    const step = dropHeldCallbacks(db, next);
    tally.droppedCallbacks += step.deleted;
    return step;
  });
}

/** The money tables' old detail, table by table, batch by batch. */
async function reduceDetail(
  db: Db,
  options: MaintenanceOptions,
  tally: Tally,
  steps: Steps,
): Promise<boolean> {
  for (const rule of DETAIL_RULES) {
    const start = detailStart(db, rule, options.rules.callbackBodyDays, options.now());
    const finished = await walkFromCursor(start, options, steps, (next) => {
      const step = reduceOldDetail(db, rule, next);
      tally.reducedDetail += step.reduced;
      return step;
    });
    if (!finished) return false;
  }
  return true;
}

async function dropExpired(
  db: Db,
  options: MaintenanceOptions,
  tally: Tally,
  steps: Steps,
): Promise<boolean> {
  for (;;) {
    if (steps.stopped()) return false;
    const dropped = dropExpiredRows(db, options.rules, options.now(), options.batchRows ?? 500);
    tally.droppedAlerts += dropped.alerts;
    tally.droppedUnreadable += dropped.unreadable;
    tally.droppedSyncRuns += dropped.syncRuns;
    await steps.pause();
    if (dropped.alerts + dropped.unreadable + dropped.syncRuns === 0) return true;
  }
}

/** The free pages back to the file system, a step at a time (a file without it: nothing). */
async function giveSpaceBack(
  db: Db,
  options: MaintenanceOptions,
  tally: Tally,
  steps: Steps,
): Promise<boolean> {
  if (!hasIncrementalVacuum(db)) return true;
  const pages = options.vacuumPages ?? 2_048;
  for (;;) {
    if (steps.stopped()) return false;
    const free = db.pragma('freelist_count', { simple: true }) as number;
    if (free === 0) return true;
    db.pragma(`incremental_vacuum(${Math.min(free, pages)})`);
    tally.pagesReturned += Math.min(free, pages);
    await steps.pause();
  }
}

/**
 * Quiet enough for the one-off VACUUM: no sale open, and none made in the last `quietMs`.
 * Reads the partial index of open sales and the primary key only.
 */
export function storeIsQuiet(db: Db, now: number, quietMs: number): boolean {
  const open = db
    .prepare(
      `SELECT 1 FROM sales WHERE state IN ('creating', 'awaiting_payment', 'confirming',
         'wrong_amount') LIMIT 1`,
    )
    .pluck()
    .get();
  if (open !== undefined) return false;
  const last = db.prepare(`SELECT created_at FROM sales ORDER BY id DESC LIMIT 1`).pluck().get() as
    number | undefined;
  return last === undefined || now - last >= quietMs;
}
