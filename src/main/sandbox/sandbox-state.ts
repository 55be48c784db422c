import type { SandboxDb } from './sandbox-db';

/** Repository functions over the sandbox schema. Every money value is integer kobo. */

export const ACCOUNT_TYPES = ['nonstatic', 'static', 'static-flex'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export type StoredAccountStatus = 'active' | 'expired' | 'cancelled';
export type TransactionStatus = 'pending' | 'success' | 'failed';
export type DispatchCause = 'payment' | 'duplicate' | 'resend';
export type DispatchState = 'pending' | 'delivered' | 'failed' | 'dropped';
/** Which of an account's two callback URLs an attempt went to. */
export type CallbackUrlSlot = 'primary' | 'fallback';

export interface MerchantRow {
  readonly secretKey: string;
  readonly accessToken: string;
  readonly payoutAccountId: string;
  readonly userId: number;
  readonly ownerName: string;
}

export interface AccountRow {
  readonly accountNumber: string;
  readonly reference: string;
  readonly externalReference: string;
  readonly accountName: string;
  readonly merchantId: string;
  readonly merchantCategory: string;
  readonly type: AccountType;
  readonly amountKobo: number | null;
  readonly expiresAtMs: number | null;
  readonly status: StoredAccountStatus;
  readonly callbackUrl: string;
  readonly createdAtMs: number;
}

export interface TransactionRow extends NewTransaction {
  readonly seq: number;
  /** Joined from the account, for listings and callbacks. */
  readonly externalReference: string;
  readonly accountType: AccountType;
  readonly callbackUrl: string;
}

export interface DispatchRow {
  readonly id: number;
  readonly sessionId: string;
  readonly cause: DispatchCause;
  readonly state: DispatchState;
  readonly createdAtMs: number;
  /** A held callback (callbacks "late") is sent once the sandbox's clock reaches this. */
  readonly dueAtMs: number | null;
  /** Why a dispatch was not sent, or what personality shaped it. */
  readonly note: string | null;
}

export interface AttemptRow {
  readonly id: number;
  readonly dispatchId: number;
  readonly attempt: number;
  readonly target: CallbackUrlSlot;
  readonly url: string;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly atMs: number;
}

export interface Balances {
  readonly availableKobo: number;
  readonly settlementPositionKobo: number;
}

// ---- merchant and balances ----

export function readMerchant(db: SandboxDb): MerchantRow | undefined {
  return db
    .prepare<[], MerchantRow>(
      `SELECT secret_key AS secretKey, access_token AS accessToken,
              payout_account_id AS payoutAccountId, user_id AS userId, owner_name AS ownerName
         FROM merchant WHERE id = 1`,
    )
    .get();
}

export function saveMerchant(db: SandboxDb, merchant: MerchantRow): void {
  db.prepare(
    `INSERT INTO merchant (id, secret_key, access_token, payout_account_id, user_id, owner_name)
     VALUES (1, @secretKey, @accessToken, @payoutAccountId, @userId, @ownerName)
     ON CONFLICT (id) DO UPDATE SET secret_key = excluded.secret_key,
       access_token = excluded.access_token, payout_account_id = excluded.payout_account_id,
       user_id = excluded.user_id, owner_name = excluded.owner_name`,
  ).run(merchant);
}

export function readBalances(db: SandboxDb): Balances {
  const rows = db
    .prepare<[], { balanceType: string; valueKobo: number }>(
      'SELECT balance_type AS balanceType, value_kobo AS valueKobo FROM payout_balances',
    )
    .all();
  const value = (type: string): number => rows.find((r) => r.balanceType === type)?.valueKobo ?? 0;
  return {
    availableKobo: value('AvailableBalance'),
    settlementPositionKobo: value('SettlementPositionBalance'),
  };
}

/** A settled inflow raises both balances (the sandbox has no payouts to separate them). */
export function creditBalances(db: SandboxDb, kobo: number): void {
  db.prepare('UPDATE payout_balances SET value_kobo = value_kobo + ?').run(kobo);
}

// ---- accounts ----

const ACCOUNT_COLUMNS = `account_number AS accountNumber, reference,
  external_reference AS externalReference, account_name AS accountName,
  merchant_id AS merchantId, merchant_category AS merchantCategory, type,
  amount_kobo AS amountKobo, expires_at_ms AS expiresAtMs, status,
  callback_url AS callbackUrl, created_at_ms AS createdAtMs`;

export function insertAccount(db: SandboxDb, account: AccountRow): void {
  db.prepare(
    `INSERT INTO accounts (account_number, reference, external_reference, account_name,
       merchant_id, merchant_category, type, amount_kobo, expires_at_ms, status, callback_url,
       created_at_ms)
     VALUES (@accountNumber, @reference, @externalReference, @accountName, @merchantId,
       @merchantCategory, @type, @amountKobo, @expiresAtMs, @status, @callbackUrl, @createdAtMs)`,
  ).run(account);
}

export function accountByNumber(db: SandboxDb, accountNumber: string): AccountRow | undefined {
  return db
    .prepare<[string], AccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE account_number = ?`,
    )
    .get(accountNumber);
}

export function accountByExternalReference(
  db: SandboxDb,
  externalReference: string,
): AccountRow | undefined {
  return db
    .prepare<[string], AccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE external_reference = ?`,
    )
    .get(externalReference);
}

export function listAccounts(db: SandboxDb): readonly AccountRow[] {
  return db
    .prepare<[], AccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY created_at_ms, rowid`,
    )
    .all();
}

export function setAccountStatus(
  db: SandboxDb,
  accountNumber: string,
  status: StoredAccountStatus,
): void {
  db.prepare('UPDATE accounts SET status = ? WHERE account_number = ?').run(status, accountNumber);
}

// ---- transactions ----

const TRANSACTION_SELECT = `SELECT t.seq, t.session_id AS sessionId,
  t.account_number AS accountNumber, t.amount_kobo AS amountKobo, t.status, t.reason,
  t.created_at_ms AS createdAtMs, t.settle_at_ms AS settleAtMs, t.settled_at_ms AS settledAtMs,
  a.external_reference AS externalReference, a.type AS accountType, a.callback_url AS callbackUrl
  FROM transactions t JOIN accounts a ON a.account_number = t.account_number`;

export interface NewTransaction {
  readonly sessionId: string;
  readonly accountNumber: string;
  readonly amountKobo: number;
  readonly status: TransactionStatus;
  readonly reason: string | null;
  readonly createdAtMs: number;
  readonly settleAtMs: number | null;
  readonly settledAtMs: number | null;
}

export function insertTransaction(db: SandboxDb, tx: NewTransaction): void {
  db.prepare(
    `INSERT INTO transactions (session_id, account_number, amount_kobo, status, reason,
       created_at_ms, settle_at_ms, settled_at_ms)
     VALUES (@sessionId, @accountNumber, @amountKobo, @status, @reason, @createdAtMs,
       @settleAtMs, @settledAtMs)`,
  ).run(tx);
}

export function sessionIdTaken(db: SandboxDb, sessionId: string): boolean {
  return db.prepare('SELECT 1 FROM transactions WHERE session_id = ?').get(sessionId) !== undefined;
}

export function transactionBySession(db: SandboxDb, sessionId: string): TransactionRow | undefined {
  return db
    .prepare<[string], TransactionRow>(`${TRANSACTION_SELECT} WHERE t.session_id = ?`)
    .get(sessionId);
}

export function transactionsOfAccount(
  db: SandboxDb,
  accountNumber: string,
): readonly TransactionRow[] {
  return db
    .prepare<[string], TransactionRow>(
      `${TRANSACTION_SELECT} WHERE t.account_number = ? ORDER BY t.seq`,
    )
    .all(accountNumber);
}

export type ListingOrder = 'oldest_first' | 'newest_first' | 'shuffled';

const LISTING_ORDER_SQL: Readonly<Record<ListingOrder, string>> = {
  // Insertion order: new rows land at the end, so offset paging stays stable.
  oldest_first: 't.seq',
  // New rows land at the front and push older ones to later offsets while a reader pages.
  newest_first: 't.seq DESC',
  // A hash of the session id (shuffle_key, registered by openSandboxDb): the same order on
  // every request; a new row lands anywhere.
  shuffled: 'shuffle_key(t.session_id), t.seq',
};

export function pageTransactions(
  db: SandboxDb,
  offset: number,
  limit: number,
  order: ListingOrder = 'oldest_first',
): readonly TransactionRow[] {
  return db
    .prepare<[number, number], TransactionRow>(
      `${TRANSACTION_SELECT} ORDER BY ${LISTING_ORDER_SQL[order]} LIMIT ? OFFSET ?`,
    )
    .all(limit, offset);
}

export function countTransactions(db: SandboxDb): number {
  const row = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM transactions').get();
  return row?.n ?? 0;
}

export function allTransactions(db: SandboxDb): readonly TransactionRow[] {
  return db.prepare<[], TransactionRow>(`${TRANSACTION_SELECT} ORDER BY t.seq`).all();
}

export function pendingTransactions(db: SandboxDb): readonly TransactionRow[] {
  return db
    .prepare<[], TransactionRow>(
      `${TRANSACTION_SELECT} WHERE t.status = 'pending' ORDER BY t.settle_at_ms, t.seq`,
    )
    .all();
}

export function settleTransaction(
  db: SandboxDb,
  seq: number,
  status: 'success' | 'failed',
  reason: string | null,
  settledAtMs: number,
): void {
  db.prepare('UPDATE transactions SET status = ?, reason = ?, settled_at_ms = ? WHERE seq = ?').run(
    status,
    reason,
    settledAtMs,
    seq,
  );
}

// ---- callback deliveries ----

const DISPATCH_COLUMNS = `id, session_id AS sessionId, cause, state, created_at_ms AS createdAtMs,
  due_at_ms AS dueAtMs, note`;

export interface NewDispatch {
  readonly sessionId: string;
  readonly cause: DispatchCause;
  readonly state: DispatchState;
  readonly createdAtMs: number;
  readonly dueAtMs?: number | null;
  readonly note?: string | null;
}

export function insertDispatch(db: SandboxDb, dispatch: NewDispatch): number {
  const result = db
    .prepare(
      `INSERT INTO callback_dispatches (session_id, cause, state, created_at_ms, due_at_ms, note)
       VALUES (@sessionId, @cause, @state, @createdAtMs, @dueAtMs, @note)`,
    )
    .run({ dueAtMs: null, note: null, ...dispatch });
  return Number(result.lastInsertRowid);
}

export function setDispatchState(db: SandboxDb, id: number, state: DispatchState): void {
  db.prepare('UPDATE callback_dispatches SET state = ? WHERE id = ?').run(state, id);
}

export function pendingDispatches(db: SandboxDb): readonly DispatchRow[] {
  return db
    .prepare<[], DispatchRow>(
      `SELECT ${DISPATCH_COLUMNS} FROM callback_dispatches WHERE state = 'pending' ORDER BY id`,
    )
    .all();
}

export function listDispatches(db: SandboxDb): readonly DispatchRow[] {
  return db
    .prepare<[], DispatchRow>(`SELECT ${DISPATCH_COLUMNS} FROM callback_dispatches ORDER BY id`)
    .all();
}

export interface NewAttempt {
  readonly dispatchId: number;
  readonly attempt: number;
  readonly target: CallbackUrlSlot;
  readonly url: string;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly atMs: number;
}

export function insertAttempt(db: SandboxDb, attempt: NewAttempt): void {
  db.prepare(
    `INSERT INTO callback_attempts (dispatch_id, attempt, target, url, http_status, error, at_ms)
     VALUES (@dispatchId, @attempt, @target, @url, @httpStatus, @error, @atMs)`,
  ).run(attempt);
}

export function listAttempts(db: SandboxDb): readonly AttemptRow[] {
  return db
    .prepare<[], AttemptRow>(
      `SELECT id, dispatch_id AS dispatchId, attempt, target, url, http_status AS httpStatus,
              error, at_ms AS atMs
         FROM callback_attempts ORDER BY id`,
    )
    .all();
}

// ---- served fault counts ----

export function addServedFault(db: SandboxDb, kind: string, times: number): void {
  db.prepare(
    `INSERT INTO served_faults (kind, count) VALUES (?, ?)
     ON CONFLICT (kind) DO UPDATE SET count = count + excluded.count`,
  ).run(kind, times);
}

export function readServedFaults(db: SandboxDb): readonly { kind: string; count: number }[] {
  return db
    .prepare<[], { kind: string; count: number }>('SELECT kind, count FROM served_faults')
    .all();
}

export function clearServedFaults(db: SandboxDb): void {
  db.prepare('DELETE FROM served_faults').run();
}

// ---- settings (config, faults and personality, JSON values) ----

export function readSetting(db: SandboxDb, key: string): string | undefined {
  return db
    .prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?')
    .get(key)?.value;
}

export function writeSetting(db: SandboxDb, key: string, value: string | undefined): void {
  if (value === undefined) {
    db.prepare('DELETE FROM settings WHERE key = ?').run(key);
    return;
  }
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(key, value);
}
