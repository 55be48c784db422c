/**
 * Reading the whole transaction listing (interface section 4.3) without trusting it blindly:
 * the listing moves while we read (new payments arrive), `count` can change or be wrong, and a
 * server may clamp `limit` or ignore `offset`. Rows are deduplicated by `session_id`, the
 * offset advances by the rows actually returned, and a page budget keeps the loop finite.
 *
 * A row the client could not read is still a row the provider returned: it moves the offset
 * and counts toward `count` (deduplicated by its raw text), or a listing with one bad row could
 * never be read to its end.
 */
import type { CallOptions } from './endpoint-context';
import type { TransactionPageRequest } from './listing-endpoint';
import { ProviderError } from './errors';
import type { TransactionPage, TransactionRecord, UnreadableListingRow } from './schemas';

/**
 * What the pager reads from: the provider client, or a wrapper of it. A wrapper that knows
 * when it sent the request (the sync's read-ahead) says so in `requestedAt`.
 */
export interface ListingSource {
  listTransactions(
    page: TransactionPageRequest,
    options?: CallOptions,
  ): Promise<TransactionPage & { readonly requestedAt?: number }>;
}

export type PaginationStopReason =
  /** Collected at least `count` unique rows: the section 4.3 end condition. */
  | 'complete'
  /** An empty page before `count` was reached: `count` overstates what can be read. */
  | 'empty_page'
  /** Several pages in a row brought only rows already seen: the server ignores `offset`. */
  | 'no_progress'
  /** More pages than `count` can explain: stopped rather than loop. */
  | 'page_budget';

export interface TransactionPageInfo {
  readonly offset: number;
  /** `count` as reported with this page. */
  readonly count: number;
  /** Readable rows as returned. */
  readonly rows: readonly TransactionRecord[];
  /** The listing offset of each of `rows` (unreadable rows hold the places in between). */
  readonly positions: readonly number[];
  /** Rows of this page that could not be read. */
  readonly unreadable: readonly UnreadableListingRow[];
  /** Rows whose `session_id` was not seen on an earlier page (or earlier on this one). */
  readonly newRows: readonly TransactionRecord[];
  /** Unreadable rows whose raw text was not seen earlier. */
  readonly newUnreadable: readonly UnreadableListingRow[];
  /** Rows returned, readable or not: the next page starts this far on. */
  readonly returned: number;
  /** Unique rows so far, unreadable ones included. */
  readonly collected: number;
  /** When the request for this page was sent, when the source says; else null. */
  readonly requestedAt: number | null;
  /** Why reading stops after this page, or null when another page follows. */
  readonly stopReason: PaginationStopReason | null;
}

export interface IteratePagesOptions {
  readonly limit: number;
  readonly startOffset?: number;
  readonly signal?: AbortSignal;
  /** Hard cap whatever `count` says; default 10 000 pages. */
  readonly maxPages?: number;
}

export interface ReadAllOptions {
  readonly limit: number;
  readonly onProgress?: (progress: { readonly collected: number; readonly count: number }) => void;
  readonly signal?: AbortSignal;
  readonly maxPages?: number;
}

export interface ReadAllResult {
  readonly transactions: readonly TransactionRecord[];
  /** Rows that could not be read, each once. */
  readonly unreadable: readonly UnreadableListingRow[];
  /** The latest `count` the provider gave. */
  readonly count: number;
  /** True only when the section 4.3 end condition was met. */
  readonly complete: boolean;
  readonly stopReason: PaginationStopReason;
  readonly pages: number;
}

const DEFAULT_MAX_PAGES = 10_000;
/** All-duplicate pages in a row before we decide the server ignores `offset`. */
const NO_PROGRESS_PAGES = 3;

/** Pages `count` can explain at the page size seen, plus slack for rows shifting under us. */
function pageBudget(remaining: number, pageSize: number): number {
  const needed = Math.ceil(Math.max(remaining, 0) / Math.max(pageSize, 1));
  return needed + Math.max(2, Math.ceil(needed / 10));
}

function aborted(): ProviderError {
  return new ProviderError({
    code: 'ABORTED',
    operation: 'list',
    message: 'Cancelled while reading the transaction list.',
    retryable: false,
  });
}

function checkOptions(limit: number, startOffset: number, maxPages: number): void {
  const bad = (field: string, problem: string): ProviderError =>
    new ProviderError({
      code: 'INVALID_REQUEST',
      operation: 'list',
      field,
      retryable: false,
      message: `Cannot read the transaction list: ${problem}. Nothing was sent to the provider.`,
    });
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw bad('limit', 'limit must be a whole number, 1 or more');
  if (!Number.isSafeInteger(startOffset) || startOffset < 0) {
    throw bad('startOffset', 'startOffset must be a whole number, 0 or more');
  }
  if (!Number.isSafeInteger(maxPages) || maxPages < 1)
    throw bad('maxPages', 'maxPages must be a whole number, 1 or more');
}

/**
 * Yields each page of the listing from `startOffset` (default 0). Each page says whether
 * reading stops after it; the generator then returns. Errors from the client propagate; an
 * aborted signal throws ProviderError ABORTED.
 */
export async function* iterateTransactionPages(
  client: ListingSource,
  options: IteratePagesOptions,
): AsyncGenerator<TransactionPageInfo, void, undefined> {
  const { limit, signal } = options;
  const startOffset = options.startOffset ?? 0;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  checkOptions(limit, startOffset, maxPages);

  const seen = new Set<string>();
  let offset = startOffset;
  let pages = 0;
  let largestPage = 0;
  let noProgress = 0;
  let firstCount: number | undefined;

  for (;;) {
    if (signal?.aborted) throw aborted();
    const page = await client.listTransactions({ offset, limit }, signal ? { signal } : {});
    if (signal?.aborted) throw aborted();
    pages += 1;
    const returned = page.transactions.length + page.unreadable.length;
    largestPage = Math.max(largestPage, returned);

    const newRows: TransactionRecord[] = [];
    for (const row of page.transactions) {
      if (seen.has(row.sessionId)) continue;
      seen.add(row.sessionId);
      newRows.push(row);
    }
    const newUnreadable: UnreadableListingRow[] = [];
    for (const row of page.unreadable) {
      // Session ids are digits, so a key that starts with a space cannot clash with one.
      const key = ` ${row.raw}`;
      if (seen.has(key)) continue;
      seen.add(key);
      newUnreadable.push(row);
    }
    const fresh = newRows.length + newUnreadable.length;
    noProgress = fresh === 0 && returned > 0 ? noProgress + 1 : 0;

    // Rows before startOffset count as collected by whoever read them earlier.
    const collected = seen.size;
    firstCount ??= page.count;
    const pageSize = Math.min(limit, largestPage || limit);
    // The latest count decides, but a count that keeps running away from us (growing as fast
    // as we read) gets at most twice what the first count explained.
    const budget = Math.min(
      maxPages,
      pageBudget(page.count - startOffset, pageSize),
      2 * pageBudget(firstCount - startOffset, pageSize) + 10,
    );
    let stopReason: PaginationStopReason | null = null;
    if (startOffset + collected >= page.count) stopReason = 'complete';
    else if (returned === 0) stopReason = 'empty_page';
    else if (noProgress >= NO_PROGRESS_PAGES) stopReason = 'no_progress';
    else if (pages >= budget) stopReason = 'page_budget';

    yield {
      offset,
      count: page.count,
      rows: page.transactions,
      positions: readablePositions(offset, returned, page.unreadable),
      unreadable: page.unreadable,
      newRows,
      newUnreadable,
      returned,
      collected,
      stopReason,
      requestedAt: page.requestedAt ?? null,
    };
    if (stopReason !== null) return;
    // The rows actually returned: equals `limit` on a full page (section 4.3) and stays right
    // when a server clamps `limit` to a smaller maximum.
    offset += returned;
  }
}

/** Offsets of a page's readable rows: every place in the page not held by an unreadable row. */
function readablePositions(
  offset: number,
  returned: number,
  unreadable: readonly UnreadableListingRow[],
): number[] {
  const taken = new Set(unreadable.map((row) => row.position));
  const positions: number[] = [];
  for (let at = offset; at < offset + returned; at++) if (!taken.has(at)) positions.push(at);
  return positions;
}

/** The whole listing from offset 0, deduplicated by `session_id`, with why reading stopped. */
export async function readAllTransactions(
  client: ListingSource,
  options: ReadAllOptions,
): Promise<ReadAllResult> {
  const transactions: TransactionRecord[] = [];
  const unreadable: UnreadableListingRow[] = [];
  let count = 0;
  let pages = 0;
  let stopReason: PaginationStopReason = 'complete';
  for await (const page of iterateTransactionPages(client, {
    limit: options.limit,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }),
  })) {
    transactions.push(...page.newRows);
    unreadable.push(...page.newUnreadable);
    count = page.count;
    pages += 1;
    options.onProgress?.({ collected: page.collected, count: page.count });
    if (page.stopReason !== null) stopReason = page.stopReason;
  }
  return {
    transactions,
    unreadable,
    count,
    complete: stopReason === 'complete',
    stopReason,
    pages,
  };
}
