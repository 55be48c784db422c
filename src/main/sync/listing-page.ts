/**
 * One page of the provider's listing, written in one short transaction together with the run's
 * progress, so that a run that dies between two pages can be resumed from its saved offset
 * without losing or double counting a row. What to write is decided here; the statements are
 * the store's (store/listing-page-repo.ts, store/sync-runs-repo.ts).
 */
import type { TransactionRecord } from '#main/provider/schemas';
import type { Db } from '#main/store/database';
import {
  decideInflowStatus,
  recordInflowStatusChange,
  type InflowStatus,
} from '#main/store/inflows-repo';
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
  const { rows } = page;
  const unreadable = page.unreadable ?? [];
  const observedAt = page.observedAt ?? now;
  return db.transaction((): PageResult => {
    const known = new Map<string, KnownInflow>();
    const references = [...new Set(rows.map((row) => row.externalReference))];
    for (const row of findKnownInflows(
      db,
      rows.map((r) => r.sessionId),
    )) {
      known.set(row.sessionId, row);
    }
    const sales = new Map<string, ReferencedSale>();
    for (const sale of findSalesByReferences(db, references)) {
      sales.set(sale.reference, sale);
    }
    const accounts = new Map<string, number>();
    for (const account of findAccountsByReferences(db, references)) {
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
        const id = insertListedInflow(
          db,
          {
            sessionId: row.sessionId,
            externalReference: row.externalReference,
            amountKobo: row.amountKobo,
            status: row.status,
            providerDate: row.date,
            occurredAt: row.dateMs,
            saleId: sale?.id ?? null,
            accountId,
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
        updateListedInflow(
          db,
          {
            id: existing.id,
            status: next.status,
            statusObservedAt: next.observedAt,
            listedStatus: row.status,
            externalReference: row.externalReference,
            providerDate: row.date,
            occurredAt: row.dateMs,
            saleId: sale?.id ?? null,
            accountId,
          },
          now,
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
