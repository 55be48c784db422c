import type { BridgeError } from '#shared/bridge/contract';
import { isAppErrorCode, type AppErrorCode } from '#shared/errors';

const BANK_NOT_ANSWERING = "The bank's service is not answering. Check the internet and try again.";
const BANK_UNREADABLE = "The bank's service sent an answer we cannot read. Try again in a minute.";
const ASK_MANAGER_KEY = 'The provider refused our key — ask the manager to check Settings.';
const ASK_MANAGER_SETTINGS = 'Something in Settings needs fixing — ask the manager to check it.';
const NEW_PAIRING_LINK =
  'This pairing link cannot be used. Ask the owner for a new link at the hub.';
const RESTART = 'The till service could not start this. Restart Transfer Till and try again.';
const TRY_AGAIN = 'Something went wrong. Try again.';

/**
 * The words for every error code, in shop language. A code missing here is a type error, so a
 * new code cannot reach a screen without words (see CONTRIBUTING.md, "A new error code").
 * Codes in MAIN_SAYS_MORE show main's own message instead when it sent one; these words are
 * then the fallback.
 */
export const CASHIER_WORDS = {
  // The bridge and the shells.
  BRIDGE_OFFLINE:
    'The till service is not running or cannot be reached. Start Transfer Till again, then retry.',
  UNAUTHORISED:
    'This page is no longer connected to the till service. Open the address that the till service printed.',
  DISPLAY_ONLY: 'The customer display only shows sales. Use the till itself to sell.',
  FORBIDDEN: 'Only the owner can do this. Ask the owner to unlock the till with the owner PIN.',
  SIGNED_OUT: 'Sign in at this till first.',
  UNKNOWN_CHANNEL: 'This screen is newer than the till service. Restart Transfer Till.',
  INVALID_INPUT: 'Something you entered is not right. Check it and try again.',
  BUSY: 'The till is busy for a moment. Try again in a few seconds.',
  NOT_AVAILABLE: 'This is not available in this version of the till.',
  ALERT_NOT_FOUND: 'This alert could not be found. It may have been dealt with already.',
  METHOD_NOT_ALLOWED: 'This page is newer than the till service. Restart Transfer Till.',
  INTERNAL:
    'Something went wrong in the till service. Try again; if it keeps happening, restart the app.',
  // The provider (the bank's service).
  INVALID_REQUEST: 'The bank would not accept these details. Check them and try again.',
  BAD_REQUEST: 'The bank refused the request. Ask the manager to check Settings.',
  SETTLEMENT_ACCOUNT_NOT_FOUND:
    'The provider does not know our settlement account — ask the manager to check Settings.',
  REFERENCE_IN_USE: 'The bank already has an account for this sale. Start a new sale.',
  STATUS_NOT_FOUND: 'The bank has no payment for this sale yet. Check again in a moment.',
  STATUS_PENDING: 'The bank is still working on this payment. Check again in a moment.',
  NOT_FOUND: 'The provider does not know this account — ask the manager to check Settings.',
  PROVIDER_AUTH_REFUSED: ASK_MANAGER_KEY,
  RATE_LIMITED: 'The bank asked us to slow down. Wait a minute and try again.',
  SERVER_ERROR: "The bank's service has a problem right now. Wait a minute and try again.",
  NETWORK: BANK_NOT_ANSWERING,
  TIMEOUT: BANK_NOT_ANSWERING,
  MALFORMED_RESPONSE: BANK_UNREADABLE,
  UNEXPECTED_STATUS: BANK_UNREADABLE,
  NO_AVAILABLE_BALANCE:
    'The provider did not report an available balance for this account. Try Refresh later.',
  ABORTED: 'That was stopped before the bank answered. Try again.',
  INVALID_CONFIG: ASK_MANAGER_SETTINGS,
  INVALID_REFERENCE_OPTION: ASK_MANAGER_SETTINGS,
  // Sales and amounts.
  INVALID_AMOUNT: 'Enter the amount in naira, for example 1,500 or 1,500.50.',
  SALE_NOT_FOUND: 'This sale could not be found. Start a new sale.',
  SALE_NOT_OPEN: 'This sale is already finished. Start a new sale.',
  PAYMENT_NOT_ASSIGNABLE:
    'This payment cannot go to that sale: it may already be settled. Look at the alerts again.',
  NOT_CONFIGURED: 'The till is not set up yet — ask the manager to open Settings.',
  AMOUNT_NOT_SAYABLE: 'This amount is too large to write in words. Check the amount.',
  OUTAGE_ACCOUNT_MISSING:
    'This till has no standing account for outages yet. An owner makes it by pressing Check everything in Settings while the internet works.',
  OUTAGE_SALE_NOT_ALLOWED:
    'The provider is answering: start a normal sale. The owner can allow outage sales at any time in Settings.',
  OUTAGE_TAGS_FULL:
    'Too many unconfirmed sales of this amount are waiting. Wait for some to be confirmed, or ask the customer to pay another way.',
  OUTAGE_HAND_OVER_OFF:
    "The shop's rule is to wait until the payment is confirmed before giving the goods.",
  // Sign-in and PINs.
  WRONG_PIN: 'That PIN is not right. Try again.',
  LOCKED_OUT: 'Too many wrong PINs. Wait a little, then try again.',
  PIN_REQUIRED: 'Enter the PIN.',
  PIN_NOT_SET: 'No PIN is set yet. Ask the owner to set one in Settings.',
  UNKNOWN_CASHIER: 'This cashier is not on the list. Choose your name again.',
  PIN_HASH_UNREADABLE:
    'The saved PIN cannot be read. Ask the owner to set the PIN again in Settings.',
  // The shop hub and its counters.
  HUB_UNAVAILABLE: 'This till cannot pair counters. Use the browser till at the hub.',
  HUB_LAN_OFF: 'Counters are switched off. Turn on the shop network in Counters first.',
  COUNTER_NOT_FOUND: 'This counter could not be found. It may have been removed.',
  COUNTER_REVOKED:
    'This counter was removed by the owner. Ask the owner for a new pairing link to sell here again.',
  COUNTER_NAME_INVALID: 'Give the counter a short name, for example Front desk.',
  TILL_ID_INVALID: 'The till id must be a few letters or numbers. Check it and try again.',
  TILL_ID_TAKEN: 'Another till in this shop already uses this till id. Choose another one.',
  PAIRING_USED: NEW_PAIRING_LINK,
  PAIRING_EXPIRED: NEW_PAIRING_LINK,
  PAIRING_UNKNOWN: NEW_PAIRING_LINK,
  LAN_PORT_IN_USE:
    'Another program is using the shop network port. Choose another port in Counters.',
  LAN_ADDRESS_UNAVAILABLE:
    'This computer does not have that network address now. Check the network and try again.',
  LAN_PORT_FORBIDDEN: 'This computer does not allow that port. Choose a port above 1024.',
  LAN_LISTEN_FAILED: 'Counters could not be switched on. Check the network and try again.',
  LAN_FLAG_INVALID: RESTART,
  HUB_CERTIFICATE_FAILED:
    "The hub's security certificate could not be made. Restart Transfer Till and try again.",
  PAIRING_LINK_NOT_A_LINK: NEW_PAIRING_LINK,
  PAIRING_LINK_NOT_HTTPS: NEW_PAIRING_LINK,
  PAIRING_LINK_NOT_LAN_ADDRESS: NEW_PAIRING_LINK,
  PAIRING_LINK_NOT_PAIRING: NEW_PAIRING_LINK,
  PAIRING_LINK_NO_CODE: NEW_PAIRING_LINK,
  PAIRING_LINK_NO_FINGERPRINT: NEW_PAIRING_LINK,
  COUNTER_FLAG_WITHOUT_LINK: NEW_PAIRING_LINK,
  COUNTER_MODE_FILE_DAMAGED:
    'This counter forgot its hub. Ask the owner for a new pairing link at the hub.',
  // Callbacks: the listener and the tunnel.
  NO_CALLBACK_TOKEN: 'Payment messages are not set up yet — ask the manager to check Settings.',
  INVALID_OPTIONS: ASK_MANAGER_SETTINGS,
  LISTEN_FAILED: 'The till could not start listening for payment messages. Restart Transfer Till.',
  LISTENER_PORT_TAKEN:
    'Another program is using the payment messages port. Ask the manager to choose another in Settings.',
  BAD_AUTHTOKEN: 'The tunnel refused its token — ask the manager to check Settings.',
  NO_NETWORK: 'The tunnel cannot reach the internet. Check the connection and try again.',
  DOMAIN_NOT_ALLOWED:
    'The tunnel account does not allow this address — ask the manager to check Settings.',
  UNKNOWN: 'The tunnel could not start. Try again in a minute.',
  INVALID_PUBLIC_URL: ASK_MANAGER_SETTINGS,
  // Settings, secrets and the data folder.
  INVALID_SETTINGS: ASK_MANAGER_SETTINGS,
  SETTINGS_FILE: 'The saved settings could not be read or written. Restart Transfer Till.',
  INVALID_SECRET: 'This key does not look right. Check it and enter it again.',
  KEYS_ENTERED_ELSEWHERE:
    'The provider address changed, so its keys must be entered again — ask the manager to open Settings.',
  DECRYPT_FAILED: 'A saved key cannot be read any more. Ask the manager to enter it again.',
  CIPHERTEXT_MALFORMED: 'A saved key cannot be read any more. Ask the manager to enter it again.',
  KEY_INVALID:
    'The key store on this computer is damaged. Ask the manager to enter the keys again.',
  UNAVAILABLE:
    "This computer's keyring cannot keep keys right now. Unlock it or sign in again, then retry.",
  ENCRYPT_FAILED: 'The key could not be saved safely. Try again.',
  DATA_DIR: RESTART,
  SANDBOX_URL_INVALID:
    'The practice bank address is not right — ask the manager to check Settings.',
  SANDBOX_UNREACHABLE: 'The practice bank is not answering. Check that it is running, then retry.',
  SANDBOX_NOT_A_SANDBOX:
    'That address is not the practice bank — ask the manager to check Settings.',
  // The store.
  DISK_FULL: 'The computer’s disk is full, so nothing new can be saved. Free some space first.',
  DATABASE_TOO_NEW: 'The till’s records come from a newer version. Install the newer version.',
  // Reports, exceptions, printing.
  INVALID_RANGE: 'Choose a valid day or range of days.',
  UNKNOWN_EXCEPTION: 'This problem could not be found. It may have been resolved already.',
  BANK_REFERENCE_REQUIRED: 'Enter the bank reference.',
  NOTE_REQUIRED: 'Write a short note.',
  PDF_FONT_MISSING: 'The report file could not be made. Restart Transfer Till and try again.',
  PDF_FAILED: 'The report file could not be made. Try again.',
  PRINT_FAILED: 'The receipt could not be printed. Check the printer and try again.',
  INVALID_OPTION: TRY_AGAIN,
  MALFORMED_TIMESTAMP: BANK_UNREADABLE,
  IMPOSSIBLE_DATE: 'That date does not exist. Choose another day.',
  INVALID_TIME_ZONE: ASK_MANAGER_SETTINGS,
  // Starting a program (seen in a terminal, rarely on a screen).
  WEB_FLAG_INVALID: RESTART,
  SHELL_PORT_TAKEN: RESTART,
  SHELL_TOKEN_UNWRITABLE: RESTART,
  NO_RUNNING_SHELL: 'The till service is not running. Start Transfer Till.',
  SANDBOX_DB_TOO_NEW: 'The practice bank’s records come from a newer version. Update it.',
  SANDBOX_INVALID_OPTION: 'The practice bank could not start. Check how it was started.',
  SANDBOX_CLI_USAGE: 'The practice bank could not start. Check how it was started.',
} as const satisfies Readonly<Record<AppErrorCode, string>>;

/**
 * Codes whose message main writes for the person at the till: how many tries are left, which
 * setting to fix, which port is taken. Everything else shows the fixed words above.
 */
const MAIN_SAYS_MORE: ReadonlySet<AppErrorCode> = new Set<AppErrorCode>([
  'INVALID_INPUT',
  'KEYS_ENTERED_ELSEWHERE',
  'INVALID_AMOUNT',
  'PAYMENT_NOT_ASSIGNABLE',
  'INVALID_REQUEST',
  'BAD_REQUEST',
  'WRONG_PIN',
  'LOCKED_OUT',
  'PIN_REQUIRED',
  'PIN_NOT_SET',
  'UNKNOWN_CASHIER',
  'BUSY',
  'NOT_AVAILABLE',
  'ALERT_NOT_FOUND',
  'DISPLAY_ONLY',
  'REFERENCE_IN_USE',
  'STATUS_NOT_FOUND',
  'STATUS_PENDING',
  'ABORTED',
  'INVALID_CONFIG',
  'INVALID_REFERENCE_OPTION',
  'AMOUNT_NOT_SAYABLE',
  'PIN_HASH_UNREADABLE',
  'HUB_UNAVAILABLE',
  'HUB_LAN_OFF',
  'COUNTER_NOT_FOUND',
  'COUNTER_REVOKED',
  'COUNTER_NAME_INVALID',
  'TILL_ID_INVALID',
  'TILL_ID_TAKEN',
  'PAIRING_USED',
  'PAIRING_EXPIRED',
  'PAIRING_UNKNOWN',
  'LAN_PORT_IN_USE',
  'LAN_ADDRESS_UNAVAILABLE',
  'LAN_PORT_FORBIDDEN',
  'LAN_LISTEN_FAILED',
  'HUB_CERTIFICATE_FAILED',
  'PAIRING_LINK_NOT_A_LINK',
  'PAIRING_LINK_NOT_HTTPS',
  'PAIRING_LINK_NOT_LAN_ADDRESS',
  'PAIRING_LINK_NOT_PAIRING',
  'PAIRING_LINK_NO_CODE',
  'PAIRING_LINK_NO_FINGERPRINT',
  'COUNTER_FLAG_WITHOUT_LINK',
  'COUNTER_MODE_FILE_DAMAGED',
  'NO_CALLBACK_TOKEN',
  'LISTEN_FAILED',
  'LISTENER_PORT_TAKEN',
  'BAD_AUTHTOKEN',
  'NO_NETWORK',
  'DOMAIN_NOT_ALLOWED',
  'UNKNOWN',
  'INVALID_PUBLIC_URL',
  'INVALID_SETTINGS',
  'SETTINGS_FILE',
  'INVALID_SECRET',
  'DECRYPT_FAILED',
  'CIPHERTEXT_MALFORMED',
  'KEY_INVALID',
  'UNAVAILABLE',
  'ENCRYPT_FAILED',
  'SANDBOX_URL_INVALID',
  'SANDBOX_UNREACHABLE',
  'SANDBOX_NOT_A_SANDBOX',
  'DISK_FULL',
  'DATABASE_TOO_NEW',
  'INVALID_RANGE',
  'UNKNOWN_EXCEPTION',
  'BANK_REFERENCE_REQUIRED',
  'NOTE_REQUIRED',
  'PDF_FONT_MISSING',
  'PDF_FAILED',
  'PRINT_FAILED',
  'IMPOSSIBLE_DATE',
]);

/** A bridge error in words a cashier can act on. */
export function cashierMessage(error: BridgeError): string {
  const code: unknown = error.code;
  // A code this page does not know (main is newer): main's message, else a plain sentence.
  if (!isAppErrorCode(code)) return error.message || TRY_AGAIN;
  if (MAIN_SAYS_MORE.has(code) && error.message) return withoutFieldPrefix(error);
  return CASHIER_WORDS[code];
}

/** Validation messages arrive as "amount: Enter an amount"; the field is shown beside it anyway. */
function withoutFieldPrefix(error: BridgeError): string {
  if (error.field && error.message.startsWith(`${error.field}: `)) {
    return error.message.slice(error.field.length + 2);
  }
  return error.message;
}
