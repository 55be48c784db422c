/**
 * The transaction table: inflows of a time range, newest first, one page at a time, filtered by
 * status and searched by reference (prefix), session_id (prefix of its digits) or amount. This
 * file reads the request and the search text; the queries are the store's
 * (store/transaction-list-queries.ts, where the order and its index are explained).
 */
import { nairaToKobo } from '#shared/money';
import type { InflowView } from '#shared/sales';
import type { TransactionListView } from '#shared/views';
import type { Db } from '#main/store/database';
import {
  listTransactionPage,
  transactionWhere,
  type SearchTerms,
  type TransactionFilter,
} from '#main/store/transaction-list-queries';
import { ReportError } from './report-range';

export interface TransactionQuery {
  readonly fromMs: number;
  readonly toMs: number;
  readonly status?: InflowView['status'];
  readonly search?: string;
  readonly offset: number;
  readonly limit: number;
}

export const MAX_LIST_LIMIT = 500;

export function parseSearch(text: string): SearchTerms | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  let amountKobo: number | null = null;
  const naira = trimmed.replace(/^(₦|NGN)\s*/i, '').replace(/,/g, '');
  if (/^\d+(\.\d{1,2})?$/.test(naira)) {
    try {
      amountKobo = nairaToKobo(naira);
    } catch {
      amountKobo = null;
    }
  }
  return {
    reference: trimmed,
    sessionPrefix: /^\d+$/.test(trimmed) ? trimmed : null,
    amountKobo,
  };
}

function filterOf(query: Omit<TransactionQuery, 'offset' | 'limit'>): TransactionFilter {
  return {
    fromMs: query.fromMs,
    toMs: query.toMs,
    status: query.status,
    terms: query.search === undefined ? null : parseSearch(query.search),
  };
}

/** The WHERE clause and its parameters of a request; exported for the query-plan test. */
export function transactionFilter(query: Omit<TransactionQuery, 'offset' | 'limit'>): {
  where: string;
  params: (string | number)[];
} {
  return transactionWhere(filterOf(query));
}

export function listTransactions(db: Db, query: TransactionQuery): TransactionListView {
  if (!Number.isSafeInteger(query.offset) || query.offset < 0) {
    throw new ReportError('INVALID_RANGE', 'offset must be a whole number, 0 or more', 'offset');
  }
  if (!Number.isSafeInteger(query.limit) || query.limit < 1 || query.limit > MAX_LIST_LIMIT) {
    throw new ReportError(
      'INVALID_RANGE',
      `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}`,
      'limit',
    );
  }
  return listTransactionPage(db, filterOf(query), query);
}
