import type { Logger } from '#main/logging/logger';
import type { ProviderClient } from '#main/provider/client';
import type { TransactionRecord } from '#main/provider/schemas';

/** Rows per page read; two pages at most per listing read. */
export const LOOKUP_PAGE_LIMIT = 100;

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
  /** The reference's rows among the listing's newest, read at most maxAgeMs ago. */
  find(reference: string, maxAgeMs: number): Promise<LookupResult>;
}

interface Snapshot {
  readonly readAt: number;
  readonly rows: Promise<readonly TransactionRecord[]>;
}

/**
 * When the status endpoint gives no clear answer (404 or 409 for a failed payment is a
 * plausible reading of the interface), the listing is the other evidence. It is read bounded,
 * never the whole history: the first page and, when there are more rows, the last one, so the
 * newest rows are covered whichever order the provider lists in. One read serves every open
 * sale while it is fresh enough, and a read in flight is shared.
 */
export function createListingLookup(deps: {
  readonly client: () => ProviderClient;
  readonly now: () => number;
  readonly logger: Logger;
}): ListingLookup {
  let snapshot: Snapshot | null = null;

  async function read(): Promise<readonly TransactionRecord[]> {
    const client = deps.client();
    const first = await client.listTransactions({ offset: 0, limit: LOOKUP_PAGE_LIMIT });
    if (first.count <= LOOKUP_PAGE_LIMIT) return first.transactions;
    const last = await client.listTransactions({
      offset: first.count - LOOKUP_PAGE_LIMIT,
      limit: LOOKUP_PAGE_LIMIT,
    });
    return [...first.transactions, ...last.transactions];
  }

  return {
    async find(reference, maxAgeMs) {
      const now = deps.now();
      if (snapshot === null || now - snapshot.readAt > maxAgeMs) {
        const rows = read();
        const taken: Snapshot = { readAt: now, rows };
        snapshot = taken;
        // A failed read is not kept: the next caller tries again.
        void rows.catch(() => {
          if (snapshot === taken) snapshot = null;
        });
      }
      const current = snapshot;
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
