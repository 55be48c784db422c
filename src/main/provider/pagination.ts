/**
 * Reading the whole transaction listing (interface section 4.3) without trusting it blindly:
 * the listing moves while we read (new payments arrive), `count` can change or be wrong, and a
 * server may clamp `limit` or ignore `offset`. Rows are deduplicated by `session_id`, the
 * offset advances by the rows actually returned, and a page budget keeps the loop finite.
 */
import type { ProviderClient } from './client';
import { ProviderError } from './errors';
import type { TransactionRecord } from './schemas';

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
  /** Rows as returned. */
  readonly rows: readonly TransactionRecord[];
  /** Rows whose `session_id` was not seen on an earlier page (or earlier on this one). */
  readonly newRows: readonly TransactionRecord[];
  /** Unique rows so far. */
  readonly collected: number;
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
  client: Pick<ProviderClient, 'listTransactions'>,
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
    largestPage = Math.max(largestPage, page.transactions.length);

    const newRows: TransactionRecord[] = [];
    for (const row of page.transactions) {
      if (seen.has(row.sessionId)) continue;
      seen.add(row.sessionId);
      newRows.push(row);
    }
    noProgress = newRows.length === 0 && page.transactions.length > 0 ? noProgress + 1 : 0;

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
    else if (page.transactions.length === 0) stopReason = 'empty_page';
    else if (noProgress >= NO_PROGRESS_PAGES) stopReason = 'no_progress';
    else if (pages >= budget) stopReason = 'page_budget';

    yield { offset, count: page.count, rows: page.transactions, newRows, collected, stopReason };
    if (stopReason !== null) return;
    // The rows actually returned: equals `limit` on a full page (section 4.3) and stays right
    // when a server clamps `limit` to a smaller maximum.
    offset += page.transactions.length;
  }
}

/** The whole listing from offset 0, deduplicated by `session_id`, with why reading stopped. */
export async function readAllTransactions(
  client: Pick<ProviderClient, 'listTransactions'>,
  options: ReadAllOptions,
): Promise<ReadAllResult> {
  const transactions: TransactionRecord[] = [];
  let count = 0;
  let pages = 0;
  let stopReason: PaginationStopReason = 'complete';
  for await (const page of iterateTransactionPages(client, {
    limit: options.limit,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }),
  })) {
    transactions.push(...page.newRows);
    count = page.count;
    pages += 1;
    options.onProgress?.({ collected: page.collected, count: page.count });
    if (page.stopReason !== null) stopReason = page.stopReason;
  }
  return { transactions, count, complete: stopReason === 'complete', stopReason, pages };
}
