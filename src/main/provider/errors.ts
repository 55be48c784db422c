import { AppError, type AreaErrorCode } from '#shared/errors';

/**
 * Every failure of the provider client is a ProviderError with a code the app can switch on and
 * a message a support person can act on. Messages and causes are scrubbed of the secret key and
 * the access token: errors end up in logs, screenshots and support chats.
 */

export type ProviderOperation = 'create' | 'status' | 'list' | 'balance';

/** The provider client's codes, defined once with every other code in #shared/errors. */
export type ProviderErrorCode = AreaErrorCode<'provider'>;

export interface ProviderErrorInit {
  readonly code: ProviderErrorCode;
  readonly operation: ProviderOperation;
  readonly message: string;
  readonly httpStatus?: number;
  readonly retryable?: boolean;
  readonly retryAfterMs?: number;
  readonly field?: string;
  /** What the provider's error body said (one line), for rules that read it; never for a screen. */
  readonly providerSaid?: string;
  readonly cause?: unknown;
  /** Secret values to remove from the message and the cause (key, token). */
  readonly redact?: readonly (string | undefined)[];
}

const REDACTED = '[redacted]';

/** Codes for which repeating the same call later may succeed. */
const RETRYABLE_CODES: ReadonlySet<ProviderErrorCode> = new Set([
  'STATUS_NOT_FOUND',
  'STATUS_PENDING',
  'RATE_LIMITED',
  'SERVER_ERROR',
  'NETWORK',
  'TIMEOUT',
]);

export class ProviderError extends AppError<ProviderErrorCode> {
  readonly operation: ProviderOperation;
  readonly httpStatus: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  /** The error body's own words (scrubbed), when it had some: the interface shows no shape. */
  readonly providerSaid: string | undefined;

  constructor(init: ProviderErrorInit) {
    const secrets = init.redact ?? [];
    super(init.code, scrubSecrets(init.message, secrets), {
      ...(init.field === undefined ? {} : { field: init.field }),
      ...(init.cause === undefined ? {} : { cause: sanitizeCause(init.cause, secrets) }),
    });
    this.name = 'ProviderError';
    this.operation = init.operation;
    this.httpStatus = init.httpStatus;
    this.retryable = init.retryable ?? RETRYABLE_CODES.has(init.code);
    this.retryAfterMs = init.retryAfterMs;
    this.providerSaid =
      init.providerSaid === undefined ? undefined : scrubSecrets(init.providerSaid, secrets);
  }
}

/** Bad client configuration (URLs, zone, limits), found when the client or a profile is built. */
export class ProviderConfigError extends AppError<'INVALID_CONFIG'> {
  declare readonly field: string;
  constructor(field: string, message: string) {
    super('INVALID_CONFIG', message, { field });
    this.name = 'ProviderConfigError';
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}

/**
 * Removes every secret from a text, also in its URL-encoded and JSON-escaped spellings (a
 * server may echo a header back in either). Empty secrets are skipped: they would match
 * everywhere and hide nothing.
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  const variants = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    variants.add(secret);
    variants.add(encodeURIComponent(secret));
    variants.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so a variant that contains another is removed whole.
  for (const variant of [...variants].sort((a, b) => b.length - a.length)) {
    result = result.split(variant).join(REDACTED);
  }
  return result;
}

/**
 * A copy of a cause that keeps what helps diagnosis (name, message, a Node error code, nested
 * causes) with secrets scrubbed, and drops anything else (request objects, headers).
 */
function sanitizeCause(cause: unknown, secrets: readonly (string | undefined)[], depth = 0): Error {
  if (cause instanceof Error) {
    const nested =
      depth < 3 && cause.cause !== undefined
        ? { cause: sanitizeCause(cause.cause, secrets, depth + 1) }
        : undefined;
    const copy = new Error(scrubSecrets(cause.message, secrets), nested);
    copy.name = cause.name;
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') Object.assign(copy, { code: scrubSecrets(code, secrets) });
    // The original stack names our files only, but the first line repeats the message.
    copy.stack = scrubSecrets(cause.stack ?? copy.message, secrets);
    return copy;
  }
  const text = typeof cause === 'string' ? cause : safeStringify(cause);
  return new Error(scrubSecrets(text, secrets));
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

export const OPERATION_LABEL: Readonly<Record<ProviderOperation, string>> = {
  create: 'creating a virtual account',
  status: 'checking a payment status',
  list: 'reading the transaction list',
  balance: 'reading the payout balance',
};

/** The error of a call whose AbortSignal fired: at the start, mid-request or during a backoff. */
export function abortedError(
  operation: ProviderOperation,
  redact: readonly (string | undefined)[],
  cause?: unknown,
): ProviderError {
  return new ProviderError({
    code: 'ABORTED',
    operation,
    message: `Cancelled while ${OPERATION_LABEL[operation]}.`,
    retryable: false,
    redact,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A duration for messages, to a tenth of a second: '2 s', '0.5 s'. */
export function inSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
