import { callbackUrlRecord } from '#main/security/callback-url-record';
import type { Db } from './database';

export type AccountType = 'nonstatic' | 'static' | 'static-flex';
/** 'counter': the owner's standing accounts; 'outage': the one a till sells on when offline. */
export type AccountPurpose = 'sale' | 'counter' | 'outage';
export type AccountStatus =
  'creating' | 'active' | 'failed_to_create' | 'expired' | 'cancelled' | 'retired';

export interface AccountRow {
  readonly id: number;
  readonly type: AccountType;
  readonly purpose: AccountPurpose;
  readonly reference: string;
  readonly providerReference: string | null;
  readonly accountNumber: string | null;
  readonly accountName: string | null;
  readonly bank: string | null;
  readonly amountKobo: number | null;
  readonly expiryMinutes: number | null;
  readonly expiresAt: number | null;
  /** The callback URL the account was made with, its secret token fingerprinted (never kept). */
  readonly callbackRecord: string | null;
  readonly status: AccountStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
}

const COLUMNS = `id, type, purpose, reference, provider_reference AS providerReference,
  account_number AS accountNumber, account_name AS accountName, bank, amount_kobo AS amountKobo,
  expiry_minutes AS expiryMinutes, expires_at AS expiresAt, callback_url AS callbackRecord, status,
  created_at AS createdAt, updated_at AS updatedAt`;

export interface NewAccount {
  readonly type: AccountType;
  readonly purpose: AccountPurpose;
  readonly reference: string;
  readonly amountKobo: number | null;
  readonly expiryMinutes: number | null;
  /** The address given to the provider; the row keeps its record (callbackUrlRecord). */
  readonly callbackUrl: string | null;
}

/** Written before the provider is asked, so a crash mid-call leaves a trace of the reference. */
export function insertPendingAccount(db: Db, account: NewAccount, now: number): AccountRow {
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO virtual_accounts (type, purpose, reference, amount_kobo, expiry_minutes,
         callback_url, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'creating', ?, ?)`,
    )
    .run(
      account.type,
      account.purpose,
      account.reference,
      account.amountKobo,
      account.expiryMinutes,
      account.callbackUrl === null ? null : callbackUrlRecord(account.callbackUrl),
      now,
      now,
    );
  return getAccountOrThrow(db, Number(lastInsertRowid));
}

export interface IssuedAccount {
  readonly providerReference: string;
  readonly accountNumber: string;
  readonly accountName: string;
  readonly bank: string;
  readonly expiresAt: number | null;
}

export function markAccountActive(
  db: Db,
  id: number,
  issued: IssuedAccount,
  now: number,
): AccountRow {
  db.prepare(
    `UPDATE virtual_accounts SET status = 'active', provider_reference = ?, account_number = ?,
       account_name = ?, bank = ?, expires_at = ?, updated_at = ? WHERE id = ?`,
  ).run(
    issued.providerReference,
    issued.accountNumber,
    issued.accountName,
    issued.bank,
    issued.expiresAt,
    now,
    id,
  );
  return getAccountOrThrow(db, id);
}

export function setAccountStatus(db: Db, id: number, status: AccountStatus, now: number): void {
  db.prepare(`UPDATE virtual_accounts SET status = ?, updated_at = ? WHERE id = ?`).run(
    status,
    now,
    id,
  );
}

export function getAccount(db: Db, id: number): AccountRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM virtual_accounts WHERE id = ?`).get(id) as
    AccountRow | undefined;
}

export function getAccountOrThrow(db: Db, id: number): AccountRow {
  const account = getAccount(db, id);
  if (!account) throw new Error(`Virtual account ${id} does not exist`);
  return account;
}

export const ACCOUNT_BY_REFERENCE_SQL = `SELECT ${COLUMNS} FROM virtual_accounts
  WHERE reference = ?`;

export function getAccountByReference(db: Db, reference: string): AccountRow | undefined {
  return db.prepare(ACCOUNT_BY_REFERENCE_SQL).get(reference) as AccountRow | undefined;
}

export const COUNTER_ACCOUNT_BY_NUMBER = `SELECT ${COLUMNS} FROM virtual_accounts
  WHERE account_number = ? AND purpose = 'counter' ORDER BY id LIMIT 1`;

/** A permanent standing account by its number (a callback may name only the number). */
export function getStandingAccountByNumber(db: Db, accountNumber: string): AccountRow | undefined {
  return db.prepare(COUNTER_ACCOUNT_BY_NUMBER).get(accountNumber) as AccountRow | undefined;
}

export const COUNTER_ACCOUNTS_SQL = `SELECT ${COLUMNS} FROM virtual_accounts
  WHERE purpose = 'counter' AND status = 'active' ORDER BY id`;

export function listStandingAccounts(db: Db): AccountRow[] {
  return db.prepare(COUNTER_ACCOUNTS_SQL).all() as AccountRow[];
}

const OUTAGE_ACCOUNT_SQL = `SELECT ${COLUMNS} FROM virtual_accounts
  WHERE purpose = 'outage' AND status = 'active' ORDER BY id DESC LIMIT 1`;

/** The till's standing account for selling through an outage (the newest active one). */
export function getOutageAccount(db: Db): AccountRow | undefined {
  return db.prepare(OUTAGE_ACCOUNT_SQL).get() as AccountRow | undefined;
}
