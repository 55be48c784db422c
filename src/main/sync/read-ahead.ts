/**
 * Read-ahead for the listing: while one page is being parsed and written, the next pages are
 * already on their way, so the provider's time per page overlaps ours instead of adding to it.
 *
 * It guesses offsets by the rows a page really holds: offset + limit while pages come back
 * full (section 4.3), or offset + the provider's page size once a page held fewer rows than
 * asked with more still to come (a provider that caps its pages), and never past the last
 * `count` seen. The pager (iterateTransactionPages) stays the
 * one that decides which offset comes next and when to stop: a guess it does not ask for is
 * simply dropped (and its request aborted), so read-ahead changes timing, never results.
 *
 * Each page says when its request was sent (`requestedAt`, on the run's clock): a guess may
 * have left well before the pager asks for it, and the page's statuses are as old as that.
 */
import type { ProviderClient } from '#main/provider/client';
import type { CallOptions } from '#main/provider/endpoint-context';
import type { TransactionPageRequest } from '#main/provider/listing-endpoint';
import type { ListingSource } from '#main/provider/pagination';
import type { TransactionPage } from '#main/provider/schemas';

export interface TimedTransactionPage extends TransactionPage {
  /** When the request for this page was sent. */
  readonly requestedAt: number;
}

export interface ReadAheadClient extends ListingSource {
  listTransactions(
    page: TransactionPageRequest,
    options?: CallOptions,
  ): Promise<TimedTransactionPage>;
  /** Aborts every request still in flight. */
  close(): void;
}

interface Prefetch {
  readonly promise: Promise<TransactionPage>;
  readonly controller: AbortController;
  readonly requestedAt: number;
}

export function createReadAhead(
  client: Pick<ProviderClient, 'listTransactions'>,
  options: {
    readonly depth: number;
    readonly signal?: AbortSignal;
    /** The run's clock; default Date.now. */
    readonly now?: () => number;
  },
): ReadAheadClient {
  const now = options.now ?? Date.now;
  const depth = Math.max(0, Math.trunc(options.depth));
  const pending = new Map<number, Prefetch>();
  let lastCount: number | null = null;
  /** Rows a page really holds; null until a page said (then `limit` is assumed). */
  let pageSize: number | null = null;
  let closed = false;

  function request(page: TransactionPageRequest): Prefetch {
    const requestedAt = now();
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const promise = client
      .listTransactions(page, { signal: controller.signal })
      .finally(() => options.signal?.removeEventListener('abort', onAbort));
    // A guess nobody asks for must not become an unhandled rejection.
    promise.catch(() => undefined);
    return { promise, controller, requestedAt };
  }

  function dropBelow(offset: number): void {
    for (const [at, prefetch] of pending) {
      if (at < offset) {
        prefetch.controller.abort();
        pending.delete(at);
      }
    }
  }

  function prefetchAfter(offset: number, limit: number): void {
    if (closed || lastCount === null) return;
    const step = Math.min(pageSize ?? limit, limit);
    for (let i = 1; i <= depth; i++) {
      const at = offset + i * step;
      if (at >= lastCount) break;
      if (!pending.has(at)) pending.set(at, request({ offset: at, limit }));
    }
  }

  return {
    async listTransactions(
      page: TransactionPageRequest,
      callOptions: CallOptions = {},
    ): Promise<TimedTransactionPage> {
      if (callOptions.signal && callOptions.signal !== options.signal) {
        throw new Error('read-ahead serves one run: pass its signal when creating it');
      }
      dropBelow(page.offset);
      const guessed = pending.get(page.offset);
      pending.delete(page.offset);
      const current = guessed ?? request(page);
      prefetchAfter(page.offset, page.limit);
      const result = await current.promise;
      lastCount = result.count;
      // Unreadable rows are rows returned: a page full of them is still a full page.
      const returned = result.transactions.length + result.unreadable.length;
      const step = Math.min(pageSize ?? page.limit, page.limit);
      if (returned !== step) {
        // Not the page the guesses assumed: they are all wrong. A short page with more rows to
        // come shows the provider's real page size; guesses go on by it.
        dropBelow(Number.POSITIVE_INFINITY);
        const more = returned > 0 && page.offset + returned < result.count;
        pageSize = more && returned < page.limit ? returned : null;
      }
      if (returned > 0) prefetchAfter(page.offset, page.limit);
      return { ...result, requestedAt: current.requestedAt };
    },
    close() {
      closed = true;
      dropBelow(Number.POSITIVE_INFINITY);
    },
  };
}
