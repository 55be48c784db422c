import { koboToDecimalString, koboToNaira } from '#shared/money';
import { effectiveStatus } from './amount-rules';
import { callbackPayload } from './callback-dispatcher';
import { formatProviderDate } from './lagos-time';
import type {
  AccountRow,
  AttemptRow,
  Balances,
  DispatchRow,
  MerchantRow,
  TransactionRow,
} from './sandbox-state';

/** JSON shapes the sandbox answers with: provider ones follow the interface to the letter. */

export const SANDBOX_BANK_NAME = 'Sandbox Bank';
/** ISO 4217 numeric code of the Naira. */
export const NGN_NUMERIC_CODE = 566;

export function createdAccountView(account: AccountRow) {
  return {
    account_number: account.accountNumber,
    account_name: account.accountName,
    reference: account.reference,
    Bank: SANDBOX_BANK_NAME,
    external_reference: account.externalReference,
    status: 'active',
  } as const;
}

export function paymentStatusView(tx: TransactionRow) {
  return {
    status: tx.status,
    session_id: tx.sessionId,
    reference: tx.externalReference,
    amount: koboToNaira(tx.amountKobo),
    date: formatProviderDate(tx.createdAtMs),
  } as const;
}

export function listedTransactionView(tx: TransactionRow) {
  return {
    amount: koboToNaira(tx.amountKobo),
    status: tx.status,
    session_id: tx.sessionId,
    external_reference: tx.externalReference,
    date: formatProviderDate(tx.createdAtMs),
  } as const;
}

/** The ways a listing row cannot be read (bad_row_every), taken in turn from row to row. */
export const ROW_DEFECTS = [
  'missing_session_id',
  'impossible_date',
  'amount_not_a_number',
  'missing_status',
  'session_id_as_number',
] as const;

export type RowDefect = (typeof ROW_DEFECTS)[number];

/**
 * Which defect a transaction is served with under `bad_row_every: N`, or null when it reads
 * fine. Keyed on the transaction's own sequence number (its place in the oldest-first listing),
 * so the same row stays bad whatever the listing order and however many rows arrive later.
 */
export function rowDefect(seq: number, badRowEvery: number): RowDefect | null {
  if (badRowEvery <= 0 || seq % badRowEvery !== 0) return null;
  return ROW_DEFECTS[(seq / badRowEvery - 1) % ROW_DEFECTS.length] ?? null;
}

export function listingRowView(
  tx: TransactionRow,
  badRowEvery: number,
): { readonly readable: boolean; readonly json: Readonly<Record<string, unknown>> } {
  const row = listedTransactionView(tx);
  const defect = rowDefect(tx.seq, badRowEvery);
  switch (defect) {
    case null:
      return { readable: true, json: row };
    case 'missing_session_id': {
      const { session_id: _dropped, ...rest } = row;
      return { readable: false, json: rest };
    }
    case 'impossible_date':
      return { readable: false, json: { ...row, date: '2026-02-30 25:61:00' } };
    case 'amount_not_a_number':
      return {
        readable: false,
        json: { ...row, amount: `NGN ${balanceDisplay(tx.amountKobo).slice(4)}` },
      };
    case 'missing_status': {
      const { status: _dropped, ...rest } = row;
      return { readable: false, json: rest };
    }
    case 'session_id_as_number':
      // 30 digits as a JSON number: precision is lost on the way, as a careless provider would.
      return { readable: false, json: { ...row, session_id: Number(tx.sessionId) } };
  }
}

/** `NGN 2,505.00`: the observed display style. */
export function balanceDisplay(kobo: number): string {
  const [whole = '0', fraction = '00'] = koboToDecimalString(kobo).split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = whole.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `NGN ${sign}${digits}.${fraction}`;
}

export function payoutAccountView(merchant: MerchantRow, balances: Balances) {
  const balance = (balanceType: string, value: number) =>
    ({ balanceType, value, currency: 'NGN', display: balanceDisplay(value) }) as const;
  return {
    id: merchant.payoutAccountId,
    iban: null,
    currency: NGN_NUMERIC_CODE,
    userId: merchant.userId,
    ownerName: merchant.ownerName,
    name: `${merchant.ownerName} Payout`,
    productId: 'SANDBOX-PAYOUT',
    type: 'CURRENT',
    status: 'OPENED',
    balances: [
      balance('AvailableBalance', balances.availableKobo),
      balance('SettlementPositionBalance', balances.settlementPositionKobo),
    ],
    externalData: {},
  } as const;
}

// ---- control API ----

export function controlAccountView(account: AccountRow, nowMs: number, paid: boolean) {
  return {
    account_number: account.accountNumber,
    account_name: account.accountName,
    reference: account.reference,
    external_reference: account.externalReference,
    merchant_id: account.merchantId,
    type: account.type,
    amount: account.amountKobo === null ? null : koboToNaira(account.amountKobo),
    amount_kobo: account.amountKobo,
    status: effectiveStatus(account, nowMs),
    paid,
    callback_url: account.callbackUrl,
    created_at: formatProviderDate(account.createdAtMs),
    created_at_ms: account.createdAtMs,
    expires_at: account.expiresAtMs === null ? null : formatProviderDate(account.expiresAtMs),
    expires_at_ms: account.expiresAtMs,
  } as const;
}

export function controlTransactionView(tx: TransactionRow) {
  return {
    session_id: tx.sessionId,
    status: tx.status,
    reason: tx.reason,
    amount: koboToNaira(tx.amountKobo),
    amount_kobo: tx.amountKobo,
    external_reference: tx.externalReference,
    account_number: tx.accountNumber,
    account_type: tx.accountType,
    date: formatProviderDate(tx.createdAtMs),
    created_at_ms: tx.createdAtMs,
    settles_at_ms: tx.settleAtMs,
    settled_at_ms: tx.settledAtMs,
  } as const;
}

export function controlDispatchView(
  dispatch: DispatchRow,
  tx: TransactionRow | undefined,
  attempts: readonly AttemptRow[],
) {
  return {
    id: dispatch.id,
    session_id: dispatch.sessionId,
    cause: dispatch.cause,
    state: dispatch.state,
    // Why it was not sent (drop_callbacks, callbacks_never) or how (late, reordered).
    note: dispatch.note,
    created_at_ms: dispatch.createdAtMs,
    due_at_ms: dispatch.dueAtMs,
    callback_url: tx?.callbackUrl ?? null,
    payload: tx === undefined ? null : callbackPayload(tx),
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      target: a.target,
      url: a.url,
      http_status: a.httpStatus,
      error: a.error,
      at: new Date(a.atMs).toISOString(),
      at_ms: a.atMs,
    })),
  } as const;
}

/**
 * What a client needs to use this sandbox: the first line of `npm run sandbox` and the answer
 * of `GET /control/info` (one shape, so a till can read it from either).
 */
export interface SandboxStartLine {
  readonly base_url: string;
  readonly payout_base_url: string;
  readonly secret_key: string;
  readonly access_token: string;
  readonly payout_account_id: string;
  readonly control_url: string;
}

export function sandboxStartLine(sandbox: {
  readonly baseUrl: string;
  readonly payoutBaseUrl: string;
  readonly secretKey: string;
  readonly accessToken: string;
  readonly payoutAccountId: string;
  readonly controlUrl: string;
}): SandboxStartLine {
  return {
    base_url: sandbox.baseUrl,
    payout_base_url: sandbox.payoutBaseUrl,
    secret_key: sandbox.secretKey,
    access_token: sandbox.accessToken,
    payout_account_id: sandbox.payoutAccountId,
    control_url: sandbox.controlUrl,
  };
}
