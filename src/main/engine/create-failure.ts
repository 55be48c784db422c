/**
 * Why a virtual account could not be created, in shop words naming what to fix, and whether
 * asking again can help. One rule for a sale's account and for go-live's trial account: the
 * provider's own text ("merchantId must not be empty") never reaches a screen, and a failure
 * that the same request cannot escape (interface section 7: a 400 for missing or invalid fields
 * or no key, a 404 for a key with no settlement account; a refused key) offers no "Try again".
 */
import { isAppError, type AppErrorCode } from '#shared/errors';
import { isProviderError, type ProviderError } from '#main/provider/errors';

export interface CreateFailure {
  /** The sale's `failed_to_create` cause: `create-<code>`, lower case. */
  readonly cause: string;
  /** What went wrong and what to do, for the cashier and the owner. */
  readonly words: string;
  /** Whether the same request later may succeed (the network, the provider's own trouble). */
  readonly retryable: boolean;
}

const FIX_IN_SETTINGS = 'An owner can fix it in Settings → Connect provider.';

/** The shop's details a create request carries, as the Connect provider page names them. */
const DETAIL_WORDS: readonly (readonly [RegExp, string])[] = [
  [/merchant[\s_-]?id/i, 'the Merchant ID'],
  [/account[\s_-]?name/i, 'the account display name'],
  [/\bmerchant\b/i, 'the merchant category'],
  [/secret[\s_-]?key/i, 'the secret key'],
];
const ANY_DETAIL = 'the Merchant ID, merchant category, account display name or secret key';

/** The detail a refusal names (our own field, or the provider's words), or all of them. */
function detailNamed(text: string | undefined): string {
  if (text === undefined) return ANY_DETAIL;
  return DETAIL_WORDS.find(([pattern]) => pattern.test(text))?.[1] ?? ANY_DETAIL;
}

/** Codes whose request would fail again unchanged: a person must fix a setting first. */
const NOT_BY_RETRYING: ReadonlySet<AppErrorCode> = new Set<AppErrorCode>([
  'INVALID_REQUEST',
  'BAD_REQUEST',
  'PROVIDER_AUTH_REFUSED',
  'SETTLEMENT_ACCOUNT_NOT_FOUND',
  'NOT_FOUND',
  'NOT_CONFIGURED',
  'KEYS_ENTERED_ELSEWHERE',
  'INVALID_CONFIG',
]);

function providerWords(error: ProviderError): string {
  switch (error.code) {
    case 'TIMEOUT':
    case 'NETWORK':
      return 'The provider did not answer. Check the internet connection and try again (no money can reach an account the customer never saw).';
    case 'SERVER_ERROR':
    case 'MALFORMED_RESPONSE':
    case 'UNEXPECTED_STATUS':
      return 'The provider had a problem creating the account. Try again.';
    case 'RATE_LIMITED':
      return 'The provider asked us to slow down. Wait a moment and try again.';
    case 'REFERENCE_IN_USE':
      return 'The provider already had an account for this sale. Try again: a new one is asked for.';
    case 'INVALID_REQUEST':
      return `The shop's details are incomplete: ${detailNamed(error.field)} is missing or not valid, so no account was asked for. ${FIX_IN_SETTINGS}`;
    case 'BAD_REQUEST':
      return `The provider refused the shop's details: ${detailNamed(error.providerSaid)} is missing or wrong. ${FIX_IN_SETTINGS}`;
    case 'PROVIDER_AUTH_REFUSED':
      return `The provider refused the shop's secret key (STAGING and LIVE keys differ). ${FIX_IN_SETTINGS}`;
    case 'SETTLEMENT_ACCOUNT_NOT_FOUND':
    case 'NOT_FOUND':
      return `The provider has no settlement account for the shop's secret key: the key is wrong or belongs to the other environment. ${FIX_IN_SETTINGS}`;
    default:
      return 'The account could not be created. Try again.';
  }
}

/** The failure of one create request, whatever was thrown. */
export function createFailureOf(error: unknown): CreateFailure {
  if (isProviderError(error)) {
    return {
      cause: `create-${error.code.toLowerCase()}`,
      words: providerWords(error),
      retryable: !NOT_BY_RETRYING.has(error.code),
    };
  }
  if (isAppError(error) && NOT_BY_RETRYING.has(error.code)) {
    // Main's own refusals (no base URL or key, a key entered for another address) are
    // already written for the owner.
    return { cause: `create-${error.code.toLowerCase()}`, words: error.message, retryable: false };
  }
  return {
    cause: 'create-error',
    words: 'The account could not be created. Try again.',
    retryable: true,
  };
}

/** Whether a sale that failed with this cause may succeed on "Try again". */
export function retryableCause(cause: string): boolean {
  const code = cause.startsWith('create-') ? cause.slice('create-'.length).toUpperCase() : '';
  return !(NOT_BY_RETRYING as ReadonlySet<string>).has(code);
}
