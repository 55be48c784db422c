/**
 * The statements one page of the provider's listing runs (sync/listing-page.ts decides what to
 * write; this file only reads and writes): the page's inflows already stored, the local sales
 * and standing accounts its references name, then an insert or an update per row. A page of 100
 * rows runs a handful of statements compiled once per connection, and every lookup is by a
 * unique key (plans tested in listing-page-repo.test.ts).
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import type { InflowStatus } from './inflows-repo';

/** An inflow of the page that is stored already, with what the listing last said of it. */
export interface KnownInflow {
  readonly id: number;
  readonly sessionId: string;
  readonly status: InflowStatus;
  readonly statusObservedAt: number;
  readonly amountKobo: number;
  readonly listedAt: number | null;
  readonly listedStatus: InflowStatus | null;
}

export interface ReferencedSale {
  readonly id: number;
  readonly reference: string;
  readonly paidSessionId: string | null;
}

export interface ReferencedAccount {
  readonly id: number;
  readonly reference: string;
}

/** A listing row as stored: its status is the listing's, observed when the page was fetched. */
export interface ListedInflowInsert {
  readonly sessionId: string;
  readonly externalReference: string;
  readonly amountKobo: number;
  readonly status: InflowStatus;
  readonly providerDate: string;
  readonly occurredAt: number;
  readonly saleId: number | null;
  readonly accountId: number | null;
  readonly observedAt: number;
}

/** What a listing row changes on a stored inflow (the status already decided by the caller). */
export interface ListedInflowUpdate {
  readonly id: number;
  readonly status: InflowStatus;
  readonly statusObservedAt: number;
  /** What the listing itself said (kept apart from the stored status). */
  readonly listedStatus: InflowStatus;
  readonly externalReference: string;
  readonly providerDate: string;
  readonly occurredAt: number;
  readonly saleId: number | null;
  readonly accountId: number | null;
}

/** Parameter: a JSON array of session ids. */
export const KNOWN_INFLOWS_SQL = `SELECT id, session_id AS sessionId, status,
    status_observed_at AS statusObservedAt, amount_kobo AS amountKobo, listed_at AS listedAt,
    listed_status AS listedStatus
  FROM inflows WHERE session_id IN (SELECT value FROM json_each(?))`;

/** Parameter: a JSON array of references. */
export const SALES_BY_REFERENCE_SQL = `SELECT id, reference, paid_session_id AS paidSessionId
  FROM sales WHERE reference IN (SELECT value FROM json_each(?))`;

/** Parameter: a JSON array of references. */
export const ACCOUNTS_BY_REFERENCE_SQL = `SELECT id, reference FROM virtual_accounts
  WHERE reference IN (SELECT value FROM json_each(?))`;

export const INSERT_LISTED_INFLOW_SQL = `INSERT INTO inflows (session_id, external_reference,
    amount_kobo, status, provider_date, occurred_at, source, last_source, sale_id, account_id,
    first_seen_at, updated_at, listed_at, listed_status, status_observed_at)
  VALUES (?, ?, ?, ?, ?, ?, 'listing', 'listing', ?, ?, ?, ?, ?, ?, ?)`;

export const UPDATE_LISTED_INFLOW_SQL = `UPDATE inflows SET status = ?, status_observed_at = ?,
    last_source = 'listing', updated_at = ?,
    external_reference = COALESCE(external_reference, ?),
    provider_date = COALESCE(provider_date, ?), occurred_at = COALESCE(occurred_at, ?),
    sale_id = COALESCE(sale_id, ?), account_id = COALESCE(account_id, ?),
    listed_at = ?, listed_status = ?
  WHERE id = ?`;

interface Statements {
  readonly known: Statement;
  readonly sales: Statement;
  readonly accounts: Statement;
  readonly insert: Statement;
  readonly update: Statement;
}

/** Prepared once per connection: a page of 100 rows runs a handful of compiled statements. */
const statementCache = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let cached = statementCache.get(db);
  if (!cached) {
    cached = {
      known: db.prepare(KNOWN_INFLOWS_SQL),
      sales: db.prepare(SALES_BY_REFERENCE_SQL),
      accounts: db.prepare(ACCOUNTS_BY_REFERENCE_SQL),
      insert: db.prepare(INSERT_LISTED_INFLOW_SQL),
      update: db.prepare(UPDATE_LISTED_INFLOW_SQL),
    };
    statementCache.set(db, cached);
  }
  return cached;
}

/** The stored inflows among these session ids (any order). */
export function findKnownInflows(db: Db, sessionIds: readonly string[]): KnownInflow[] {
  return statements(db).known.all(JSON.stringify(sessionIds)) as KnownInflow[];
}

/** The local sales these references name (any order). */
export function findSalesByReferences(db: Db, references: readonly string[]): ReferencedSale[] {
  return statements(db).sales.all(JSON.stringify(references)) as ReferencedSale[];
}

/** The local virtual accounts these references name (any order). */
export function findAccountsByReferences(
  db: Db,
  references: readonly string[],
): ReferencedAccount[] {
  return statements(db).accounts.all(JSON.stringify(references)) as ReferencedAccount[];
}

/** Stores a row first met in the listing; returns its id. */
export function insertListedInflow(db: Db, row: ListedInflowInsert, now: number): number {
  const { lastInsertRowid } = statements(db).insert.run(
    row.sessionId,
    row.externalReference,
    row.amountKobo,
    row.status,
    row.providerDate,
    row.occurredAt,
    row.saleId,
    row.accountId,
    now,
    now,
    now,
    row.status,
    row.observedAt,
  );
  return Number(lastInsertRowid);
}

/**
 * Writes what the listing said of a stored row: the decided status, the listing's own, and the
 * reference, dates and links it may have lacked (never the amount: a stored amount is kept).
 */
export function updateListedInflow(db: Db, row: ListedInflowUpdate, now: number): void {
  statements(db).update.run(
    row.status,
    row.statusObservedAt,
    now,
    row.externalReference,
    row.providerDate,
    row.occurredAt,
    row.saleId,
    row.accountId,
    now,
    row.listedStatus,
    row.id,
  );
}
