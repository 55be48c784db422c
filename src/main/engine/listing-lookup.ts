import type { Logger } from '#main/logging/logger';
import type { ProviderClient } from '#main/provider/client';
import type { TransactionPage, TransactionRecord } from '#main/provider/schemas';

/** Rows asked for per page (a provider may give fewer: see the read below). */
export const LOOKUP_PAGE_LIMIT = 100;
/** The newest rows the lookup means to cover. */
export const LOOKUP_WINDOW_ROWS = 100;
/** Listing requests one read may send, whatever the provider's page size. */
export const LOOKUP_MAX_REQUESTS = 6;

export type LookupResult =
  | {
      readonly kind: 'rows';
      /** The reference's rows among the newest ones (empty: none there). */
      readonly rows: readonly TransactionRecord[];
      /** When the listing was read (its rows' observation time). */
      readonly readAt: number;
    }
  | { readonly kind: 'error' };

export interface ListingLookup {
  /**
   * The reference's rows among the listing's newest, read at most maxAgeMs ago; `fresh`: read
   * now whatever was read before (news of money has just come).
   */
  find(
    reference: string,
    maxAgeMs: number,
    options?: { readonly fresh?: boolean },
  ): Promise<LookupResult>;
}

interface Snapshot {
  readonly readAt: number;
  readonly rows: Promise<readonly TransactionRecord[]>;
}

type ListingSource = Pick<ProviderClient, 'listTransactions'>;

/** Which end of the listing holds the newest rows, as the first page's dates show. */
export type NewestEnd = 'front' | 'back' | 'unknown';

export function newestEnd(rows: readonly Pick<TransactionRecord, 'dateMs'>[]): NewestEnd {
  let up = false;
  let down = false;
  for (let i = 1; i < rows.length; i++) {
    const step = (rows[i]?.dateMs ?? 0) - (rows[i - 1]?.dateMs ?? 0);
    if (step > 0) up = true;
    if (step < 0) down = true;
  }
  if (up === down) return 'unknown';
  return up ? 'back' : 'front';
}

function returned(page: TransactionPage): number {
  return page.transactions.length + page.unreadable.length;
}

/**
 * The newest rows of the listing within a request budget, whatever its order and page size.
 * The interface does not promise that `limit` is honoured: the first page says how many rows
 * the provider really gives (its page size), every later request asks for that many and moves
 * by the rows it really got. Oldest first, the newest rows are read back from `count`; newest
 * first, on from the front; when the first page's dates do not tell, both ends.
 */
export async function readNewestRows(source: ListingSource): Promise<readonly TransactionRecord[]> {
  const first = await source.listTransactions({ offset: 0, limit: LOOKUP_PAGE_LIMIT });
  const rows = [...first.transactions];
  let pageSize = Math.min(returned(first), LOOKUP_PAGE_LIMIT);
  let frontEnd = returned(first);
  if (pageSize === 0 || frontEnd >= first.count) return rows;
  const end = newestEnd(first.transactions);
  let requests = 1;
  const frontBudget = end === 'front' ? LOOKUP_MAX_REQUESTS : LOOKUP_MAX_REQUESTS / 2;
  if (end !== 'back') {
    while (frontEnd < LOOKUP_WINDOW_ROWS && frontEnd < first.count && requests < frontBudget) {
      const page = await source.listTransactions({ offset: frontEnd, limit: pageSize });
      requests += 1;
      if (returned(page) === 0) break;
      rows.push(...page.transactions);
      frontEnd += returned(page);
    }
  }
  if (end === 'front') return rows;
  let backEnd = first.count;
  let backRows = 0;
  while (backEnd > frontEnd && backRows < LOOKUP_WINDOW_ROWS && requests < LOOKUP_MAX_REQUESTS) {
    const offset = Math.max(frontEnd, backEnd - pageSize);
    const asked = backEnd - offset;
    const page = await source.listTransactions({ offset, limit: asked });
    requests += 1;
    const got = returned(page);
    if (got === 0) break;
    rows.push(...page.transactions);
    if (got < asked) {
      // A smaller page than the first one gave: its rows are older than the ones still to read,
      // so the next request asks for this many, nearer the end.
      pageSize = got;
      continue;
    }
    backRows += got;
    backEnd = offset;
  }
  return rows;
}

/**
 * When the status endpoint gives no clear answer (404 or 409 for a failed payment is a
 * plausible reading of the interface), the listing is the other evidence. It is read bounded,
 * never the whole history: the newest rows (readNewestRows). One read serves every open sale
 * while it is fresh enough, and a read in flight is shared.
 */
export function createListingLookup(deps: {
  readonly client: () => ProviderClient;
  readonly now: () => number;
  readonly logger: Logger;
}): ListingLookup {
  let snapshot: Snapshot | null = null;

  return {
    async find(reference, maxAgeMs, options = {}) {
      const now = deps.now();
      let current = snapshot;
      if (current === null || now - current.readAt > maxAgeMs || options.fresh === true) {
        const rows = readNewestRows(deps.client());
        const taken: Snapshot = { readAt: now, rows };
        snapshot = current = taken;
        // A failed read is not kept: the next caller tries again.
        void rows.catch(() => {
          if (snapshot === taken) snapshot = null;
        });
      }
      try {
        const rows = await current.rows;
        const seen = new Set<string>();
        const mine = rows.filter((row) => {
          if (row.externalReference !== reference || seen.has(row.sessionId)) return false;
          seen.add(row.sessionId);
          return true;
        });
        return { kind: 'rows', rows: mine, readAt: current.readAt };
      } catch (error) {
        deps.logger.warn({ err: error, reference }, 'listing lookup failed');
        return { kind: 'error' };
      }
    },
  };
}
