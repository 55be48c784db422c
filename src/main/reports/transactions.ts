/**
 * The transaction table: inflows of a time range, newest first, one page at a time, filtered by
 * status and searched by reference (prefix), session_id (prefix of its digits) or amount.
 *
 * The rows come in the order of the index inflows_day (occurred_at, status, amount_kobo, id)
 * walked backwards, so a page costs an index range walk, never a sort of the whole range (at
 * most the ties of one instant are sorted when a status is chosen).
 */
import { nairaToKobo } from '../../shared/money';
import type { InflowView } from '../../shared/sales';
import type { TransactionListView } from '../../shared/views';
import type { Db } from '../store/database';
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
/** Above every UTF-8 character: `x >= p AND x < p || TOP` is "x starts with p". */
const TOP = '\u{10FFFF}';

export interface SearchTerms {
  /** Prefix of external_reference. */
  readonly reference: string;
  /** Prefix of session_id, when the text is digits. */
  readonly sessionPrefix: string | null;
  /** Exact amount, when the text reads as Naira ("1500", "₦1,500.50", "NGN 1500"). */
  readonly amountKobo: number | null;
}

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

const COLUMNS = `session_id AS sessionId, external_reference AS externalReference,
  amount_kobo AS amountKobo, status, occurred_at AS occurredAt, source, sale_id AS saleId,
  first_seen_at AS firstSeenAt`;

/** The WHERE clause and its parameters; exported for the query-plan test. */
export function transactionFilter(query: Omit<TransactionQuery, 'offset' | 'limit'>): {
  where: string;
  params: (string | number)[];
} {
  const clauses = ['occurred_at >= ?', 'occurred_at < ?'];
  const params: (string | number)[] = [query.fromMs, query.toMs];
  if (query.status) {
    clauses.push('status = ?');
    params.push(query.status);
  }
  const terms = query.search === undefined ? null : parseSearch(query.search);
  if (terms) {
    const any = ['(external_reference >= ? AND external_reference < ?)'];
    params.push(terms.reference, terms.reference + TOP);
    if (terms.sessionPrefix !== null) {
      any.push('(session_id >= ? AND session_id < ?)');
      params.push(terms.sessionPrefix, terms.sessionPrefix + TOP);
    }
    if (terms.amountKobo !== null) {
      any.push('amount_kobo = ?');
      params.push(terms.amountKobo);
    }
    clauses.push(`(${any.join(' OR ')})`);
  }
  return { where: clauses.join(' AND '), params };
}

export const LIST_ORDER = 'ORDER BY occurred_at DESC, status DESC, amount_kobo DESC, id DESC';

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
  const { where, params } = transactionFilter(query);
  return db.transaction((): TransactionListView => {
    const rows = db
      .prepare(`SELECT ${COLUMNS} FROM inflows WHERE ${where} ${LIST_ORDER} LIMIT ? OFFSET ?`)
      .all(...params, query.limit, query.offset) as InflowView[];
    const { total } = db
      .prepare(`SELECT COUNT(*) AS total FROM inflows WHERE ${where}`)
      .get(...params) as { total: number };
    return { rows, total };
  })();
}
