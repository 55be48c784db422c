/**
 * The app's one error model. Every failure main raises on purpose is an `AppError` (or a subclass
 * of it) carrying a code from `AppErrorCode`; the bridge sends the code, the message and the
 * field to the renderer, which shows words looked up by the code (renderer/src/errors.ts).
 * Anything thrown that is not an `AppError` is a bug: the bridge logs it and answers `INTERNAL`,
 * never its message. Kept free of zod and Node: the renderer imports the codes too.
 *
 * Each code is listed once, under the area that raises it. A new code goes here, gets words in
 * the renderer's table (a type error until it does) and, if scripts can see it over HTTP, a line
 * in docs/http-bridge.md (see CONTRIBUTING.md, "A new error code").
 */
export const ERROR_CODES_BY_AREA = {
  /** The bridge itself and the shells' listeners (some are seen over HTTP: keep them). */
  bridge: [
    'UNKNOWN_CHANNEL',
    'INVALID_INPUT',
    'FORBIDDEN',
    'SIGNED_OUT',
    /** A shell's listener refused the token (HTTP 401): not the provider refusing our key. */
    'UNAUTHORISED',
    /** The customer display's token calls a channel (HTTP 403): it only shows sales. */
    'DISPLAY_ONLY',
    /** The till is switching environments for a moment. */
    'BUSY',
    'NOT_AVAILABLE',
    'ALERT_NOT_FOUND',
    /** The listeners' answer to a route asked with the wrong method (HTTP 405). */
    'METHOD_NOT_ALLOWED',
    /** Anything thrown that is not an AppError: logged in main, never shown. */
    'INTERNAL',
  ],
  /** Raised in the renderer when main cannot be reached at all. */
  renderer: ['BRIDGE_OFFLINE'],
  /** The provider client (ProviderError), section by section of the provider's interface. */
  provider: [
    /** Our own validation refused the request; nothing was sent. `field` names the culprit. */
    'INVALID_REQUEST',
    /** HTTP 400: missing or invalid fields, or no secret key. */
    'BAD_REQUEST',
    /** Create, HTTP 404: the settlement account linked to the secret key does not exist. */
    'SETTLEMENT_ACCOUNT_NOT_FOUND',
    /** Create, HTTP 409: a virtual account with this reference already exists. */
    'REFERENCE_IN_USE',
    /** Status, HTTP 404: no transaction for the reference (yet). An answer, not a fault. */
    'STATUS_NOT_FOUND',
    /** Status, HTTP 409: the transaction exists but is still pending. Ask again later. */
    'STATUS_PENDING',
    /** HTTP 404 anywhere else, e.g. an unknown payout account (also the listeners' 404). */
    'NOT_FOUND',
    /** HTTP 401 or 403: the provider refused our secret key or access token. */
    'PROVIDER_AUTH_REFUSED',
    /** HTTP 429. `retryAfterMs` carries the server's Retry-After when it gave one. */
    'RATE_LIMITED',
    /** HTTP 5xx. */
    'SERVER_ERROR',
    /** Connection refused, DNS failure, connection reset. */
    'NETWORK',
    /** No complete answer within the client's timeout. */
    'TIMEOUT',
    /** Not JSON, an HTML page, the wrong shape or types, or a body over the size cap. */
    'MALFORMED_RESPONSE',
    /** An HTTP status the interface does not describe (3xx, 418, 409 outside create/status...). */
    'UNEXPECTED_STATUS',
    /** The payout account has no AvailableBalance entry (which is not the same as zero). */
    'NO_AVAILABLE_BALANCE',
    /** The caller's AbortSignal fired. */
    'ABORTED',
  ],
  /** Building the provider client and its references. */
  providerConfig: ['INVALID_CONFIG', 'INVALID_REFERENCE_OPTION'],
  /** Sales (the engine) and amounts typed or computed. */
  sales: [
    'INVALID_AMOUNT',
    'SALE_NOT_FOUND',
    'SALE_NOT_OPEN',
    'NOT_CONFIGURED',
    'AMOUNT_NOT_SAYABLE',
    /** An outage sale asked for before the till has its standing account for outages. */
    'OUTAGE_ACCOUNT_MISSING',
    /** An outage sale while the provider answers, and the owner has not allowed it by choice. */
    'OUTAGE_SALE_NOT_ALLOWED',
    /** Every kobo tag of this naira amount is held by an open outage sale. */
    'OUTAGE_TAGS_FULL',
    /** "Goods given" on an outage sale while the shop's policy is to wait for confirmation. */
    'OUTAGE_HAND_OVER_OFF',
    /** An owner's assignment of an outage payment the till cannot make (taken, not outage money). */
    'PAYMENT_NOT_ASSIGNABLE',
  ],
  /** Sign-in, unlock and PINs. */
  auth: [
    'WRONG_PIN',
    'LOCKED_OUT',
    'PIN_REQUIRED',
    'PIN_NOT_SET',
    'UNKNOWN_CASHIER',
    'PIN_HASH_UNREADABLE',
  ],
  /** The shop hub: counters, pairing, the LAN listener, the hub's certificate. */
  hub: [
    'HUB_UNAVAILABLE',
    'HUB_LAN_OFF',
    'COUNTER_NOT_FOUND',
    /** Also the LAN listener's 401 for a revoked counter's token. */
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
    'LAN_FLAG_INVALID',
    'HUB_CERTIFICATE_FAILED',
  ],
  /** A counter's desktop app: its pairing link and saved counter mode. */
  counterDesktop: [
    'PAIRING_LINK_NOT_A_LINK',
    'PAIRING_LINK_NOT_HTTPS',
    'PAIRING_LINK_NOT_LAN_ADDRESS',
    'PAIRING_LINK_NOT_PAIRING',
    'PAIRING_LINK_NO_CODE',
    'PAIRING_LINK_NO_FINGERPRINT',
    'COUNTER_FLAG_WITHOUT_LINK',
    'COUNTER_MODE_FILE_DAMAGED',
  ],
  /** Callbacks: the listener, the tunnel and the public URL. */
  callbacks: [
    'NO_CALLBACK_TOKEN',
    'INVALID_OPTIONS',
    'LISTEN_FAILED',
    'LISTENER_PORT_TAKEN',
    'BAD_AUTHTOKEN',
    'NO_NETWORK',
    'DOMAIN_NOT_ALLOWED',
    /** The tunnel failed for a reason ngrok did not name. */
    'UNKNOWN',
    'INVALID_PUBLIC_URL',
  ],
  /** Settings, secrets and the data directory. */
  settings: [
    'INVALID_SETTINGS',
    'SETTINGS_FILE',
    'INVALID_SECRET',
    /** A saved provider key was entered for another address than its environment's now. */
    'KEYS_ENTERED_ELSEWHERE',
    'DECRYPT_FAILED',
    'CIPHERTEXT_MALFORMED',
    'KEY_INVALID',
    'UNAVAILABLE',
    'ENCRYPT_FAILED',
    'DATA_DIR',
    'SANDBOX_URL_INVALID',
    'SANDBOX_UNREACHABLE',
    'SANDBOX_NOT_A_SANDBOX',
  ],
  /** The store: a full disk, a database from a newer version. */
  store: ['DISK_FULL', 'DATABASE_TOO_NEW'],
  /** Reports, exceptions, sync and printing. */
  reports: [
    'INVALID_RANGE',
    'UNKNOWN_EXCEPTION',
    'BANK_REFERENCE_REQUIRED',
    'NOTE_REQUIRED',
    'PDF_FONT_MISSING',
    'PDF_FAILED',
    'PRINT_FAILED',
    /** A bad option given to sync or a provider-time helper (a programming error). */
    'INVALID_OPTION',
    'MALFORMED_TIMESTAMP',
    'IMPOSSIBLE_DATE',
    'INVALID_TIME_ZONE',
  ],
  /** Starting a program: the browser shell's flags, port, token and start line; the sandbox's. */
  startup: [
    'WEB_FLAG_INVALID',
    'SHELL_PORT_TAKEN',
    'SHELL_TOKEN_UNWRITABLE',
    'NO_RUNNING_SHELL',
    'SANDBOX_DB_TOO_NEW',
    'SANDBOX_INVALID_OPTION',
    'SANDBOX_CLI_USAGE',
  ],
} as const;

type CodesByArea = typeof ERROR_CODES_BY_AREA;
export type ErrorArea = keyof CodesByArea;

/** Every error code the app raises, each defined once above. */
export type AppErrorCode = CodesByArea[ErrorArea][number];
/** The codes of one area, e.g. `AreaErrorCode<'provider'>` for a ProviderError. */
export type AreaErrorCode<A extends ErrorArea> = CodesByArea[A][number];

export const APP_ERROR_CODES: readonly AppErrorCode[] = Object.values(ERROR_CODES_BY_AREA).flat();

const KNOWN_CODES: ReadonlySet<string> = new Set(APP_ERROR_CODES);

/** True for a code this build knows (a newer main may send one an older page does not). */
export function isAppErrorCode(value: unknown): value is AppErrorCode {
  return typeof value === 'string' && KNOWN_CODES.has(value);
}

export interface AppErrorOptions {
  /** The input field to show the message beside: safe for the renderer. */
  readonly field?: string;
  readonly cause?: unknown;
}

/**
 * A failure raised on purpose. Its message is written for the person who will read it (the
 * cashier, the owner, or a support person reading the log) and must hold no secret: the bridge
 * sends it with the code. Details for logs only (a cause, a port, an HTTP status) stay on the
 * subclass in main.
 */
export class AppError<C extends AppErrorCode = AppErrorCode> extends Error {
  readonly code: C;
  readonly field: string | undefined;

  constructor(code: C, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.field = options.field;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
