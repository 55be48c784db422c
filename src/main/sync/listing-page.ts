/**
 * One page of the provider's listing, written in one short transaction together with the run's
 * progress, so that a run that dies between two pages can be resumed from its saved offset
 * without losing or double counting a row. What to write is decided here; the statements are
 * the store's (store/listing-page-repo.ts, store/sync-runs-repo.ts).
 */
import type { TransactionRecord } from '#main/provider/schemas';
import type { Db } from '#main/store/database';
import { observeInflowStatus, type StatusDecision } from '#main/engine/inflow-status';
import type { InflowStatus } from '#main/store/inflows-repo';
import {
  findAccountsByReferences,
  findKnownInflows,
  findSalesByReferences,
  insertListedInflow,
  updateListedInflow,
  type KnownInflow,
  type ReferencedSale,
} from '#main/store/listing-page-repo';
import { recordPageProgress, type PageProgress } from '#main/store/sync-runs-repo';
import { recordUnreadableRows, type UnreadableRowInput } from '#main/store/unreadable-repo';

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

/** What the page's rows point at, looked up once per page. */
interface PageLookups {
  readonly known: Map<string, KnownInflow>;
  readonly sales: ReadonlyMap<string, ReferencedSale>;
  readonly accounts: ReadonlyMap<string, number>;
}

function lookUpPage(db: Db, rows: readonly TransactionRecord[]): PageLookups {
  const references = [...new Set(rows.map((row) => row.externalReference))];
  const known = new Map<string, KnownInflow>();
  for (const row of findKnownInflows(
    db,
    rows.map((r) => r.sessionId),
  )) {
    known.set(row.sessionId, row);
  }
  const sales = new Map<string, ReferencedSale>();
  for (const sale of findSalesByReferences(db, references)) sales.set(sale.reference, sale);
  const accounts = new Map<string, number>();
  for (const account of findAccountsByReferences(db, references)) {
    accounts.set(account.reference, account.id);
  }
  return { known, sales, accounts };
}

/** Where one row points and when the page said it. */
interface RowWrite {
  readonly row: TransactionRecord;
  readonly sale: ReferencedSale | undefined;
  readonly accountId: number | null;
  readonly observedAt: number;
  readonly now: number;
}

/** Stores a row first met in this listing. */
function insertRow(db: Db, known: Map<string, KnownInflow>, w: RowWrite): void {
  const { row, observedAt, now } = w;
  const id = insertListedInflow(
    db,
    {
      sessionId: row.sessionId,
      externalReference: row.externalReference,
      amountKobo: row.amountKobo,
      status: row.status,
      providerDate: row.date,
      occurredAt: row.dateMs,
      saleId: w.sale?.id ?? null,
      accountId: w.accountId,
      observedAt,
    },
    now,
  );
  known.set(row.sessionId, {
    id,
    sessionId: row.sessionId,
    status: row.status,
    statusObservedAt: observedAt,
    amountKobo: row.amountKobo,
    listedAt: now,
    listedStatus: row.status,
  });
}

/** Writes what the listing says of a stored row; the status follows the engine's rule. */
function updateRow(
  db: Db,
  known: Map<string, KnownInflow>,
  existing: KnownInflow,
  w: RowWrite,
): StatusDecision {
  const { row, observedAt, now } = w;
  const next = observeInflowStatus(
    db,
    existing,
    { status: row.status, observedAt },
    'listing',
    now,
    (decided) =>
      updateListedInflow(
        db,
        {
          id: existing.id,
          status: decided.status,
          statusObservedAt: decided.observedAt,
          listedStatus: row.status,
          externalReference: row.externalReference,
          providerDate: row.date,
          occurredAt: row.dateMs,
          saleId: w.sale?.id ?? null,
          accountId: w.accountId,
        },
        now,
      ),
  );
  known.set(row.sessionId, {
    ...existing,
    status: next.status,
    statusObservedAt: next.observedAt,
    listedAt: now,
    listedStatus: row.status,
  });
  return next;
}

/** What one row told this till, and whether the sales engine must hear of it. */
interface RowOutcome {
  readonly inserted: boolean;
  readonly changed: boolean;
  /** The row is news: new, first listed, or listed with another status or amount. */
  readonly news: boolean;
  readonly notice: ListedRowNotice | null;
}

function applyRow(db: Db, lookups: PageLookups, w: RowWrite): RowOutcome {
  const { row, sale, accountId, observedAt } = w;
  const existing = lookups.known.get(row.sessionId);
  if (!existing) insertRow(db, lookups.known, w);
  const next = existing ? updateRow(db, lookups.known, existing, w) : undefined;
  const amountConflict = existing !== undefined && existing.amountKobo !== row.amountKobo;
  const news =
    !existing ||
    existing.listedAt === null ||
    existing.listedStatus !== row.status ||
    amountConflict;
  const status = next?.status ?? row.status;
  const isNew = existing === undefined;
  const saleWaits = sale !== undefined && sale.paidSessionId === null;
  const newSuccessHere =
    isNew && row.status === 'success' && (sale !== undefined || accountId !== null);
  const successForWaitingSale = row.status === 'success' && status === 'success' && saleWaits;
  const tell = amountConflict || next?.changed === true || newSuccessHere || successForWaitingSale;
  const notice: ListedRowNotice | null = tell
    ? {
        tx: row,
        change: {
          inserted: isNew,
          previousStatus: existing?.status ?? null,
          status,
          amountConflict,
          observedAt,
        },
      }
    : null;
  return { inserted: isNew, changed: next?.changed === true, news, notice };
}

/**
 * Upserts one page of listing rows by session_id, keeps the rows it could not read, and records
 * the run's progress, in one transaction. Statuses follow the engine's rule
 * (engine/inflow-status.ts: the newest observation wins, each change kept in the history) and a
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
  const { rows } = page;
  const unreadable = page.unreadable ?? [];
  const observedAt = page.observedAt ?? now;
  return db.transaction((): PageResult => {
    const lookups = lookUpPage(db, rows);
    let inserted = 0;
    let updated = 0;
    let allKnown = unreadable.length === 0;
    const unlistedIndexes: number[] = [];
    const notify: ListedRowNotice[] = [];
    rows.forEach((row, index) => {
      if ((lookups.known.get(row.sessionId)?.listedAt ?? null) === null) {
        unlistedIndexes.push(index);
      }
      const sale = lookups.sales.get(row.externalReference);
      const accountId = lookups.accounts.get(row.externalReference) ?? null;
      const outcome = applyRow(db, lookups, { row, sale, accountId, observedAt, now });
      if (outcome.inserted) inserted += 1;
      if (outcome.changed) updated += 1;
      if (outcome.news) allKnown = false;
      if (outcome.notice) notify.push(outcome.notice);
    });
    recordUnreadableRows(db, unreadable, progress.runId, now);
    recordPageProgress(db, progress, { inserted, updated });
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
