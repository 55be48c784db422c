import type { BridgeError } from '#shared/bridge/contract';

const BANK_NOT_ANSWERING = "The bank's service is not answering. Check the internet and try again.";
const ASK_MANAGER_KEY = 'The provider refused our key — ask the manager to check Settings.';

/** Fixed words for codes whose own message is written for a developer, not a cashier. */
const WORDS: Readonly<Record<string, string>> = {
  BRIDGE_OFFLINE:
    'The till service is not running or cannot be reached. Start Transfer Till again, then retry.',
  UNAUTHORISED:
    'This page is no longer connected to the till service. Open the address that the till service printed.',
  FORBIDDEN: 'Only the owner can do this. Ask the owner to unlock the till with the owner PIN.',
  SIGNED_OUT: 'Sign in at this till first.',
  UNKNOWN_CHANNEL: 'This screen is newer than the till service. Restart Transfer Till.',
  SALE_NOT_OPEN: 'This sale is already finished. Start a new sale.',
  SALE_NOT_FOUND: 'This sale could not be found. Start a new sale.',
  NOT_CONFIGURED: 'The till is not set up yet — ask the manager to open Settings.',
  NETWORK: BANK_NOT_ANSWERING,
  TIMEOUT: BANK_NOT_ANSWERING,
  SERVER_ERROR: "The bank's service has a problem right now. Wait a minute and try again.",
  RATE_LIMITED: 'The bank asked us to slow down. Wait a minute and try again.',
  MALFORMED_RESPONSE: "The bank's service sent an answer we cannot read. Try again in a minute.",
  UNEXPECTED_STATUS: "The bank's service sent an answer we cannot read. Try again in a minute.",
  UNAUTHORIZED: ASK_MANAGER_KEY,
  SETTLEMENT_ACCOUNT_NOT_FOUND:
    'The provider does not know our settlement account — ask the manager to check Settings.',
  NOT_FOUND: 'The provider does not know this account — ask the manager to check Settings.',
  NO_AVAILABLE_BALANCE:
    'The provider did not report an available balance for this account. Try Refresh later.',
  INTERNAL:
    'Something went wrong in the till service. Try again; if it keeps happening, restart the app.',
};

/** Codes whose message is already meant for the person at the till. */
const OWN_MESSAGE = new Set([
  'INVALID_INPUT',
  'INVALID_AMOUNT',
  'INVALID_REQUEST',
  'BAD_REQUEST',
  // Sign-in and PINs: main's words say how many tries are left or how long to wait.
  'WRONG_PIN',
  'LOCKED_OUT',
  'PIN_REQUIRED',
  'PIN_NOT_SET',
  'UNKNOWN_CASHIER',
]);

/** A bridge error in words a cashier can act on. */
export function cashierMessage(error: BridgeError): string {
  if (OWN_MESSAGE.has(error.code)) return withoutFieldPrefix(error);
  return WORDS[error.code] ?? (error.message || 'Something went wrong. Try again.');
}

/** Validation messages arrive as "amount: Enter an amount"; the field is shown beside it anyway. */
function withoutFieldPrefix(error: BridgeError): string {
  if (error.field && error.message.startsWith(`${error.field}: `)) {
    return error.message.slice(error.field.length + 2);
  }
  return error.message;
}
