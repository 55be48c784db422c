/**
 * The store side of the transaction sync: the sync_runs rows, and one listing page written in
 * one short transaction together with the run's progress, so that a run that dies between two
 * pages can be resumed from its saved offset without losing or double counting a row.
 */
import type { Statement } from 'better-sqlite3';
import type { SyncRunView } from '../../shared/views';
import type { TransactionRecord } from '../provider/schemas';
import type { Db } from '../store/database';
import {
  decideInflowStatus,
  recordInflowStatusChange,
  type InflowStatus,
} from '../store/inflows-repo';
import { recordUnreadableRows, type UnreadableRowInput } from '../store/unreadable-repo';

export type SyncMode = SyncRunView['mode'];
export type SyncStatus = SyncRunView['status'];
/** The order the provider lists transactions in, as read from the dates it returned. */
export type ListingOrder = 'oldest_first' | 'newest_first' | 'unknown';

export interface SyncRunRow {
  readonly id: number;
  readonly mode: SyncMode;
  readonly trigger: string;
  readonly status: SyncStatus;
  readonly startedAt: number;
  readonly finishedAt: number | null;
  readonly reportedCount: number | null;
  readonly collected: number;
  readonly inserted: number;
  readonly updated: number;
  /** Rows of the listing this run could not read (each once). */
  readonly unreadable: number;
  readonly nextOffset: number;
  readonly error: string | null;
  readonly startOffset: number;
  readonly listingOrder: ListingOrder | null;
  /** Lowest listing offset at which this run saw a row that was not final (pending/unknown). */
  readonly pendingOffset: number | null;
  /** Oldest provider date (epoch ms) of a row this run saw that was not final. */
  readonly pendingSince: number | null;
}

/** Statuses a later run picks up from `next_offset` instead of starting over. */
export const RESUMABLE_STATUSES: ReadonlySet<SyncStatus> = new Set([
  'interrupted',
  'failed',
  'cancelled',
]);

const RUN_COLUMNS = `id, mode, trigger, status, started_at AS startedAt, finished_at AS finishedAt,
  reported_count AS reportedCount, collected, inserted, updated, unreadable,
  next_offset AS nextOffset, error,
  start_offset AS startOffset, listing_order AS listingOrder, pending_offset AS pendingOffset,
  pending_since AS pendingSince`;

export function toSyncRunView(row: SyncRunRow): SyncRunView {
  return {
    id: row.id,
    mode: row.mode,
    trigger: row.trigger,
    status: row.status,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    reportedCount: row.reportedCount,
    collected: row.collected,
    inserted: row.inserted,
    updated: row.updated,
    unreadable: row.unreadable,
    error: row.error,
  };
}

export function insertSyncRun(
  db: Db,
  run: { readonly mode: SyncMode; readonly trigger: string; readonly startOffset: number },
  now: number,
): SyncRunRow {
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO sync_runs (mode, trigger, status, started_at, start_offset, next_offset)
       VALUES (?, ?, 'running', ?, ?, ?)`,
    )
    .run(run.mode, run.trigger, now, run.startOffset, run.startOffset);
  return getSyncRunOrThrow(db, Number(lastInsertRowid));
}

export function getSyncRun(db: Db, id: number): SyncRunRow | undefined {
  return db.prepare(`SELECT ${RUN_COLUMNS} FROM sync_runs WHERE id = ?`).get(id) as
    SyncRunRow | undefined;
}

export function getSyncRunOrThrow(db: Db, id: number): SyncRunRow {
  const row = getSyncRun(db, id);
  if (!row) throw new Error(`Sync run ${id} does not exist`);
  return row;
}

export function latestSyncRun(db: Db): SyncRunRow | undefined {
  return db.prepare(`SELECT ${RUN_COLUMNS} FROM sync_runs ORDER BY id DESC LIMIT 1`).get() as
    SyncRunRow | undefined;
}

export function lastCompleteSyncRun(db: Db): SyncRunRow | undefined {
  return db
    .prepare(
      `SELECT ${RUN_COLUMNS} FROM sync_runs WHERE status = 'complete' ORDER BY id DESC LIMIT 1`,
    )
    .get() as SyncRunRow | undefined;
}

/**
 * Runs still 'running' when no run is active in this process were cut short by a crash or a
 * power cut: they become 'interrupted' (and resumable). Returns how many there were.
 */
export function markStaleRunsInterrupted(db: Db, now: number, keepId?: number): number {
  return db
    .prepare(
      `UPDATE sync_runs SET status = 'interrupted', finished_at = ?,
         error = COALESCE(error, 'The app stopped while this sync was running.')
       WHERE status = 'running' AND id IS NOT ?`,
    )
    .run(now, keepId ?? null).changes;
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

// ---------------------------------------------------------------------------------------------
// One listing page

/**
 * Settled as far as the listing says (success or failed). A settled status can still change
 * later (a reversal); a row that is not settled is one the next incremental run must read again.
 */
export function isFinalStatus(status: TransactionRecord['status']): boolean {
  return status === 'success' || status === 'failed';
}

/** What the sales engine is told about a listed row (see PageResult.notify). */
export interface ListedRowChange {
  /** The row was new to this till. */
  readonly inserted: boolean;
  /** The stored status before this page; null for a new row. */
  readonly previousStatus: InflowStatus | null;
  /** The stored status after this page (the listing's, unless a newer observation holds). */
  readonly status: InflowStatus;
  readonly amountConflict: boolean;
  /** When the provider said it: when the page was requested. */
  readonly observedAt: number;
}

export interface ListedRowNotice {
  readonly tx: TransactionRecord;
  readonly change: ListedRowChange;
}

/** One page to write: its readable rows, the rows it could not read, and when it was fetched. */
export interface ListingPageWrite {
  readonly rows: readonly TransactionRecord[];
  readonly unreadable?: readonly UnreadableRowInput[];
  /** When the provider said these statuses (the page's request time); default `now`. */
  readonly observedAt?: number;
}

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
}

export interface PageResult {
  readonly inserted: number;
  readonly updated: number;
  /**
   * Rows the sales engine should see: a new success for a local sale or account, a success for
   * a local sale that is not marked paid yet (the listing may be the first news of that
   * payment), any change of a stored status (a late settlement, a reversal) and amount
   * conflicts (alerts). New successes nobody here asked for are left to the report.
   */
  readonly notify: readonly ListedRowNotice[];
  /**
   * Every row was already shown by an earlier listing with the same status and amount: the page
   * holds no news. (Rows first stored from a callback count as news until a listing shows them;
   * a page with a row that could not be read is never all known.)
   */
  readonly allKnown: boolean;
  /** Index in `rows` of the first row no earlier listing had shown, or -1. */
  readonly firstUnlistedIndex: number;
  /** Indexes in `rows` of every row no earlier listing had shown. */
  readonly unlistedIndexes: readonly number[];
}

interface KnownInflow {
  readonly id: number;
  readonly sessionId: string;
  readonly status: TransactionRecord['status'];
  readonly statusObservedAt: number;
  readonly amountKobo: number;
  readonly listedAt: number | null;
  readonly listedStatus: TransactionRecord['status'] | null;
}

interface Statements {
  readonly known: Statement;
  readonly sales: Statement;
  readonly accounts: Statement;
  readonly insert: Statement;
  readonly update: Statement;
  readonly progress: Statement;
}

/** Prepared once per connection: a page of 100 rows runs a handful of compiled statements. */
const statementCache = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let cached = statementCache.get(db);
  if (!cached) {
    cached = {
      known: db.prepare(
        `SELECT id, session_id AS sessionId, status, status_observed_at AS statusObservedAt,
           amount_kobo AS amountKobo, listed_at AS listedAt, listed_status AS listedStatus
         FROM inflows WHERE session_id IN (SELECT value FROM json_each(?))`,
      ),
      sales: db.prepare(
        `SELECT id, reference, paid_session_id AS paidSessionId FROM sales
         WHERE reference IN (SELECT value FROM json_each(?))`,
      ),
      accounts: db.prepare(
        `SELECT id, reference FROM virtual_accounts
         WHERE reference IN (SELECT value FROM json_each(?))`,
      ),
      insert: db.prepare(
        `INSERT INTO inflows (session_id, external_reference, amount_kobo, status, provider_date,
           occurred_at, source, last_source, sale_id, account_id, first_seen_at, updated_at,
           listed_at, listed_status, status_observed_at)
         VALUES (?, ?, ?, ?, ?, ?, 'listing', 'listing', ?, ?, ?, ?, ?, ?, ?)`,
      ),
      update: db.prepare(
        `UPDATE inflows SET status = ?, status_observed_at = ?, last_source = 'listing',
           updated_at = ?,
           external_reference = COALESCE(external_reference, ?),
           provider_date = COALESCE(provider_date, ?), occurred_at = COALESCE(occurred_at, ?),
           sale_id = COALESCE(sale_id, ?), account_id = COALESCE(account_id, ?),
           listed_at = ?, listed_status = ?
         WHERE id = ?`,
      ),
      progress: db.prepare(
        `UPDATE sync_runs SET next_offset = COALESCE(?, next_offset), reported_count = ?,
           collected = collected + ?, unreadable = unreadable + ?, inserted = inserted + ?,
           updated = updated + ?, pending_offset = ?, pending_since = ?,
           listing_order = COALESCE(?, listing_order)
         WHERE id = ?`,
      ),
    };
    statementCache.set(db, cached);
  }
  return cached;
}

/**
 * Upserts one page of listing rows by session_id, keeps the rows it could not read, and records
 * the run's progress, in one transaction. Statuses follow the rule of inflows-repo
 * (decideInflowStatus: the newest observation wins, each change kept in the history) and a
 * stored amount is never overwritten: a disagreeing amount is handed back in `notify` so the
 * engine raises its alert. Rows are linked to the local sale or account whose reference they
 * carry.
 */
export function applyListingPage(
  db: Db,
  page: ListingPageWrite,
  progress: PageProgress,
  now: number,
): PageResult {
  const s = statements(db);
  const { rows } = page;
  const unreadable = page.unreadable ?? [];
  const observedAt = page.observedAt ?? now;
  return db.transaction((): PageResult => {
    const known = new Map<string, KnownInflow>();
    const references = [...new Set(rows.map((row) => row.externalReference))];
    const referenceJson = JSON.stringify(references);
    for (const row of s.known.all(JSON.stringify(rows.map((r) => r.sessionId))) as KnownInflow[]) {
      known.set(row.sessionId, row);
    }
    const sales = new Map<string, { id: number; paidSessionId: string | null }>();
    for (const sale of s.sales.all(referenceJson) as {
      id: number;
      reference: string;
      paidSessionId: string | null;
    }[]) {
      sales.set(sale.reference, sale);
    }
    const accounts = new Map<string, number>();
    for (const account of s.accounts.all(referenceJson) as { id: number; reference: string }[]) {
      accounts.set(account.reference, account.id);
    }

    let inserted = 0;
    let updated = 0;
    let allKnown = unreadable.length === 0;
    const unlistedIndexes: number[] = [];
    const notify: ListedRowNotice[] = [];
    rows.forEach((row, index) => {
      const sale = sales.get(row.externalReference);
      const accountId = accounts.get(row.externalReference) ?? null;
      const existing = known.get(row.sessionId);
      let amountConflict = false;
      let next: ReturnType<typeof decideInflowStatus> | undefined;
      if ((existing?.listedAt ?? null) === null) unlistedIndexes.push(index);
      if (!existing) {
        const { lastInsertRowid } = s.insert.run(
          row.sessionId,
          row.externalReference,
          row.amountKobo,
          row.status,
          row.date,
          row.dateMs,
          sale?.id ?? null,
          accountId,
          now,
          now,
          now,
          row.status,
          observedAt,
        );
        known.set(row.sessionId, {
          id: Number(lastInsertRowid),
          sessionId: row.sessionId,
          status: row.status,
          statusObservedAt: observedAt,
          amountKobo: row.amountKobo,
          listedAt: now,
          listedStatus: row.status,
        });
        inserted += 1;
        allKnown = false;
      } else {
        next = decideInflowStatus(
          { status: existing.status, observedAt: existing.statusObservedAt },
          { status: row.status, observedAt },
        );
        amountConflict = existing.amountKobo !== row.amountKobo;
        if (existing.listedAt === null || existing.listedStatus !== row.status || amountConflict) {
          allKnown = false;
        }
        s.update.run(
          next.status,
          next.observedAt,
          now,
          row.externalReference,
          row.date,
          row.dateMs,
          sale?.id ?? null,
          accountId,
          now,
          row.status,
          existing.id,
        );
        if (next.changed) {
          updated += 1;
          recordInflowStatusChange(db, {
            inflowId: existing.id,
            recordedAt: now,
            observedAt,
            fromStatus: existing.status,
            toStatus: next.status,
            source: 'listing',
          });
        }
        known.set(row.sessionId, {
          ...existing,
          status: next.status,
          statusObservedAt: next.observedAt,
          listedAt: now,
          listedStatus: row.status,
        });
      }
      const status = next?.status ?? row.status;
      const isNew = existing === undefined;
      const saleWaits = sale !== undefined && sale.paidSessionId === null;
      const newSuccessHere =
        isNew && row.status === 'success' && (sale !== undefined || accountId !== null);
      const successForWaitingSale = row.status === 'success' && status === 'success' && saleWaits;
      if (amountConflict || next?.changed === true || newSuccessHere || successForWaitingSale) {
        notify.push({
          tx: row,
          change: {
            inserted: isNew,
            previousStatus: existing?.status ?? null,
            status,
            amountConflict,
            observedAt,
          },
        });
      }
    });
    recordUnreadableRows(db, unreadable, progress.runId, now);

    s.progress.run(
      progress.nextOffset,
      progress.reportedCount,
      progress.collectedDelta,
      progress.unreadableDelta ?? 0,
      inserted,
      updated,
      progress.pendingOffset,
      progress.pendingSince,
      progress.listingOrder,
      progress.runId,
    );
    return {
      inserted,
      updated,
      notify,
      allKnown,
      firstUnlistedIndex: unlistedIndexes[0] ?? -1,
      unlistedIndexes,
    };
  })();
}
