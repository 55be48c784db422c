import { koboToDecimalString, koboToNaira } from '../../shared/money';
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
    created_at_ms: dispatch.createdAtMs,
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
