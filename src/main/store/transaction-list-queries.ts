/**
 * The transaction table's queries (reports/transactions.ts): the inflows of a time range, newest
 * first, one page at a time, filtered by status and searched by reference (prefix), session_id
 * (prefix of its digits) or amount.
 *
 * The rows come in the order of the index inflows_day (occurred_at, status, amount_kobo, id)
 * walked backwards, so a page costs an index range walk, never a sort of the whole range (at
 * most the ties of one instant are sorted when a status is chosen). Plans tested in
 * transaction-list-queries.test.ts.
 */
import type { InflowView } from '#shared/sales';
import type { Db } from './database';
import type { InflowStatus } from './inflows-repo';

/** What a search text may mean (read by reports/transactions.ts parseSearch). */
export interface SearchTerms {
  /** Prefix of external_reference. */
  readonly reference: string;
  /** Prefix of session_id, when the text is digits. */
  readonly sessionPrefix: string | null;
  /** Exact amount, when the text reads as Naira ("1500", "₦1,500.50", "NGN 1500"). */
  readonly amountKobo: number | null;
}

export interface TransactionFilter {
  readonly fromMs: number;
  readonly toMs: number;
  readonly status?: InflowStatus | undefined;
  readonly terms: SearchTerms | null;
}

/** Above every UTF-8 character: `x >= p AND x < p || TOP` is "x starts with p". */
const TOP = '\u{10FFFF}';

const COLUMNS = `session_id AS sessionId, external_reference AS externalReference,
  amount_kobo AS amountKobo, status, occurred_at AS occurredAt, source, sale_id AS saleId,
  first_seen_at AS firstSeenAt`;

export const LIST_ORDER = 'ORDER BY occurred_at DESC, status DESC, amount_kobo DESC, id DESC';

/** The WHERE clause of a filter and its parameters (in the order of its placeholders). */
export function transactionWhere(filter: TransactionFilter): {
  where: string;
  params: (string | number)[];
} {
  const clauses = ['occurred_at >= ?', 'occurred_at < ?'];
  const params: (string | number)[] = [filter.fromMs, filter.toMs];
  if (filter.status) {
    clauses.push('status = ?');
    params.push(filter.status);
  }
  const { terms } = filter;
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

/** One page of a WHERE clause's rows; parameters: the clause's, then LIMIT and OFFSET. */
export function transactionPageSql(where: string): string {
  return `SELECT ${COLUMNS} FROM inflows WHERE ${where} ${LIST_ORDER} LIMIT ? OFFSET ?`;
}

/** How many rows a WHERE clause matches. */
export function transactionCountSql(where: string): string {
  return `SELECT COUNT(*) AS total FROM inflows WHERE ${where}`;
}

/** A page of the filter's rows and their total, read in one snapshot (sales may go on). */
export function listTransactionPage(
  db: Db,
  filter: TransactionFilter,
  page: { readonly offset: number; readonly limit: number },
): { rows: InflowView[]; total: number } {
  const { where, params } = transactionWhere(filter);
  return db.transaction(() => {
    const rows = db
      .prepare(transactionPageSql(where))
      .all(...params, page.limit, page.offset) as InflowView[];
    const { total } = db.prepare(transactionCountSql(where)).get(...params) as { total: number };
    return { rows, total };
  })();
}
