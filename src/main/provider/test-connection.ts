/**
 * "Test connection" in settings: two harmless reads with the entered profile and secrets — a
 * one-row page of the transaction list (checks the base URL and the secret key) and the payout
 * balance (checks the payout URL, the access token and the payout account) — each reported in
 * words a shopkeeper can act on.
 */
import { formatNaira } from '#shared/money';
import type { ProviderClient } from './client';
import { ProviderError } from './errors';

/** What settings show about where the keys come from. */
export { WHERE_KEYS_COME_FROM } from '#shared/views';
import { WHERE_KEYS_COME_FROM } from '#shared/views';

export type ConnectionCheckName = 'transactions' | 'balance';

export interface ConnectionCheck {
  readonly check: ConnectionCheckName;
  readonly ok: boolean;
  /** The ProviderError code (or NO_PAYOUT_ACCOUNT) when not ok. */
  readonly code?: string;
  readonly message: string;
  readonly advice?: string;
}

export interface TestConnectionInput {
  /** Built from the profile and secrets being tested (one read attempt and a short timeout suit a button). */
  readonly client: ProviderClient;
  readonly payoutAccountId: string;
  readonly signal?: AbortSignal;
}

const WRONG_ENVIRONMENT =
  'Check that this key belongs to this environment — staging and production keys differ.';

function http(error: ProviderError): string {
  return error.httpStatus === undefined ? '' : ` (HTTP ${error.httpStatus})`;
}

function failed(check: ConnectionCheckName, code: string, message: string, advice?: string) {
  const result: ConnectionCheck = { check, ok: false, code, message };
  return advice === undefined ? result : { ...result, advice };
}

function unexpected(check: ConnectionCheckName, error: unknown): ConnectionCheck {
  return failed(
    check,
    'UNEXPECTED',
    `The test stopped on an unexpected error: ${error instanceof Error ? error.message : String(error)}`,
    'Try again; if it keeps happening, send the log to support.',
  );
}

/** Shared by both checks: the codes that mean the same thing whichever endpoint said them. */
function commonFailure(
  check: ConnectionCheckName,
  error: ProviderError,
  urlField: string,
): ConnectionCheck | undefined {
  switch (error.code) {
    case 'NETWORK':
      return failed(
        check,
        error.code,
        error.message,
        `Check the ${urlField} in these settings and that this computer is online.`,
      );
    case 'TIMEOUT':
      return failed(
        check,
        error.code,
        'The provider did not answer in time.',
        `Check the ${urlField} in these settings and the internet connection, then try again.`,
      );
    case 'SERVER_ERROR':
      return failed(
        check,
        error.code,
        `The provider had an internal error${http(error)}. This is on the provider's side.`,
        "Try again in a few minutes; if it lasts, tell the provider's support team.",
      );
    case 'RATE_LIMITED':
      return failed(
        check,
        error.code,
        'The provider is limiting requests right now (HTTP 429).',
        'Wait a minute and test again.',
      );
    case 'UNEXPECTED_STATUS':
      return failed(
        check,
        error.code,
        `The provider gave an answer this app does not expect${http(error)}.`,
        `Check the ${urlField}: it may point to another server or redirect elsewhere.`,
      );
    case 'ABORTED':
      return failed(check, error.code, 'The test was cancelled.');
    default:
      return undefined;
  }
}

async function checkTransactions(
  client: ProviderClient,
  signal: AbortSignal | undefined,
): Promise<ConnectionCheck> {
  const check = 'transactions';
  try {
    const page = await client.listTransactions({ offset: 0, limit: 1 }, signal ? { signal } : {});
    return {
      check,
      ok: true,
      message: `Connected: the provider accepted the secret key (${page.count} transaction${page.count === 1 ? '' : 's'} on record).`,
    };
  } catch (error) {
    if (!(error instanceof ProviderError)) return unexpected(check, error);
    const common = commonFailure(check, error, 'provider address (base URL)');
    if (common) return common;
    switch (error.code) {
      case 'INVALID_REQUEST':
        return error.field === 'secretKey'
          ? failed(
              check,
              error.code,
              error.message.includes('no secret key')
                ? 'No secret key is saved for this environment.'
                : 'The saved secret key contains characters that cannot be sent.',
              `Enter the secret key. ${WHERE_KEYS_COME_FROM}`,
            )
          : failed(check, error.code, error.message);
      case 'PROVIDER_AUTH_REFUSED':
        return failed(
          check,
          error.code,
          `The provider refused the secret key${http(error)}.`,
          `Check the secret key for this environment. ${WRONG_ENVIRONMENT}`,
        );
      case 'BAD_REQUEST':
        return failed(
          check,
          error.code,
          'The provider rejected the request as invalid (HTTP 400); this usually means the secret key is missing or not recognised.',
          `Enter the secret key again, exactly as the provider sent it. ${WRONG_ENVIRONMENT}`,
        );
      case 'NOT_FOUND':
      case 'SETTLEMENT_ACCOUNT_NOT_FOUND':
        return failed(
          check,
          error.code,
          `The provider found no settlement account for this key, or this is the wrong environment${http(error)}.`,
          `${WRONG_ENVIRONMENT} Also check the provider address (base URL).`,
        );
      case 'MALFORMED_RESPONSE':
        return failed(
          check,
          error.code,
          'The provider answered, but not with a transaction list this app understands.',
          "Check the provider address (base URL): it may point to a web page or another service. If it is right, tell the provider's support team.",
        );
      default:
        return failed(check, error.code, error.message);
    }
  }
}

async function checkBalance(
  client: ProviderClient,
  payoutAccountId: string,
  signal: AbortSignal | undefined,
): Promise<ConnectionCheck> {
  const check = 'balance';
  const accountId = payoutAccountId.trim();
  if (accountId === '') {
    return failed(
      check,
      'NO_PAYOUT_ACCOUNT',
      'No payout account number is saved for this environment, so the balance was not checked.',
      `Enter the payout account number. ${WHERE_KEYS_COME_FROM}`,
    );
  }
  try {
    const account = await client.getPayoutAccount(accountId, signal ? { signal } : {});
    return {
      check,
      ok: true,
      message: `Payout account ${accountId}: ${formatNaira(account.availableBalanceKobo)} available for payout.`,
    };
  } catch (error) {
    if (!(error instanceof ProviderError)) return unexpected(check, error);
    const common = commonFailure(check, error, 'payout address (payout base URL)');
    if (common) return common;
    switch (error.code) {
      case 'INVALID_REQUEST':
        if (error.field === 'accessToken') {
          return failed(
            check,
            error.code,
            error.message.includes('no payout access token')
              ? 'No payout access token is saved for this environment.'
              : 'The saved payout access token contains characters that cannot be sent.',
            `Enter the payout access token. ${WHERE_KEYS_COME_FROM}`,
          );
        }
        return failed(
          check,
          error.code,
          `The payout account number "${accountId}" is not in a form the provider accepts.`,
          'Enter the payout account number exactly as the provider gave it (digits only).',
        );
      case 'PROVIDER_AUTH_REFUSED':
        return failed(
          check,
          error.code,
          `The provider refused the payout access token${http(error)}: it has expired or is wrong.`,
          `Ask the provider's support team for a new access token for this environment. ${WRONG_ENVIRONMENT}`,
        );
      case 'NOT_FOUND':
        return failed(
          check,
          error.code,
          `The provider has no payout account "${accountId}"${http(error)}.`,
          `Check the payout account number. ${WRONG_ENVIRONMENT}`,
        );
      case 'BAD_REQUEST':
        return failed(
          check,
          error.code,
          'The payout service rejected the request as invalid (HTTP 400).',
          'Check the payout account number and the payout access token.',
        );
      case 'NO_AVAILABLE_BALANCE':
        return failed(
          check,
          error.code,
          `The payout account "${accountId}" answered without an available balance, so the amount available for payout is unknown (it is not zero).`,
          "Try again later; if it lasts, tell the provider's support team.",
        );
      case 'MALFORMED_RESPONSE':
        return failed(
          check,
          error.code,
          'The payout service answered, but not with an account this app understands.',
          "Check the payout address (payout base URL). If it is right, tell the provider's support team.",
        );
      default:
        return failed(check, error.code, error.message);
    }
  }
}

/** Runs both checks side by side; never throws. */
export async function testConnection(
  input: TestConnectionInput,
): Promise<readonly [ConnectionCheck, ConnectionCheck]> {
  return Promise.all([
    checkTransactions(input.client, input.signal),
    checkBalance(input.client, input.payoutAccountId, input.signal),
  ]);
}
