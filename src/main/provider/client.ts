/**
 * The app side of the provider boundary: one typed function per endpoint of the interface,
 * each with a timeout, a response size cap, strict parsing, and a ProviderError with a code on
 * every failure. Reads retry transient faults with jittered backoff; create never retries,
 * because a second POST with the same reference could only answer 409 and would hide the
 * account number the first one may have created.
 */
import type { Kobo } from '../../shared/money';
import { DEFAULT_PROVIDER_TIME_ZONE, assertTimeZone } from '../../shared/provider-time';
import {
  OPERATION_LABEL,
  ProviderConfigError,
  ProviderError,
  type ProviderErrorCode,
  type ProviderOperation,
} from './errors';
import {
  REFERENCE_PATTERN,
  createResponseSchemas,
  createVirtualAccountInputSchema,
  describeIssues,
  toCreateBody,
  type CreateVirtualAccountInput,
  type PaymentStatusRecord,
  type PayoutAccount,
  type TransactionPage,
  type VirtualAccount,
} from './schemas';
import type { z } from 'zod';

export interface ReadRetryPolicy {
  /** Total attempts, the first included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export interface ProviderClientConfig {
  /** {base_url} of the virtual-account endpoints. */
  readonly baseUrl: string;
  /** {payout_base_url} of the payout balance endpoint. */
  readonly payoutBaseUrl: string;
  readonly secretKey: string;
  readonly accessToken: string;
  /** Zone of the provider's timestamps; default Africa/Lagos. */
  readonly timeZone?: string;
  readonly fetch?: typeof fetch;
  /** Covers the whole exchange: connect, headers and body. Default 15 000 ms. */
  readonly timeoutMs?: number;
  readonly readRetry?: ReadRetryPolicy;
  readonly sleep?: (ms: number) => Promise<void>;
  /** In [0, 1), for backoff jitter. */
  readonly random?: () => number;
  /** Default 10 MiB. */
  readonly maxResponseBytes?: number;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

export interface TransactionPageRequest {
  readonly offset: number;
  readonly limit: number;
}

export interface PayoutAccountWithBalance extends PayoutAccount {
  /** The `AvailableBalance` entry's value: the amount available for payout, in kobo. */
  readonly availableBalanceKobo: Kobo;
}

/**
 * The status lookup as a value. The interface promises 200 only for a confirmed payment, but a
 * 200 whose record says 'failed', 'pending' or something new is reported as such, never as
 * confirmed: only `confirmed` means the money arrived.
 */
export type PaymentCheck =
  | { readonly kind: 'confirmed'; readonly record: PaymentStatusRecord }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'pending'; readonly record?: PaymentStatusRecord }
  | { readonly kind: 'failed'; readonly record: PaymentStatusRecord }
  | { readonly kind: 'unknown'; readonly record: PaymentStatusRecord };

export interface ProviderClient {
  createVirtualAccount(
    input: CreateVirtualAccountInput,
    options?: CallOptions,
  ): Promise<VirtualAccount>;
  getPaymentStatus(reference: string, options?: CallOptions): Promise<PaymentStatusRecord>;
  checkPayment(reference: string, options?: CallOptions): Promise<PaymentCheck>;
  listTransactions(page: TransactionPageRequest, options?: CallOptions): Promise<TransactionPage>;
  getPayoutAccount(accountId: string, options?: CallOptions): Promise<PayoutAccountWithBalance>;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_READ_RETRY: ReadRetryPolicy = {
  attempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8000,
};
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** Interface section 8.5 gives no maximum page size; this keeps one page's body reasonable. */
export const MAX_PAGE_LIMIT = 10_000;
/** Error bodies are read only for a hint to show; a small cap is enough. */
const ERROR_BODY_BYTES = 64 * 1024;

const READ_RETRY_CODES: ReadonlySet<ProviderErrorCode> = new Set([
  'NETWORK',
  'TIMEOUT',
  'SERVER_ERROR',
  'RATE_LIMITED',
]);

/** Header values must be visible ASCII; anything else would make fetch throw mid-request. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

interface Exchange {
  readonly operation: ProviderOperation;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Words for messages: 'reference TT-1', 'payout account 123'. */
  readonly subject?: string;
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string | undefined;
}

class BodyTooLarge extends Error {}

function validateBaseUrl(field: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ProviderConfigError(field, `${field} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProviderConfigError(field, `${field} must use http or https`);
  }
  if (url.username || url.password) {
    throw new ProviderConfigError(field, `${field} must not carry a user name or password`);
  }
  if (url.search || url.hash) {
    throw new ProviderConfigError(field, `${field} must not carry a query or fragment`);
  }
  return url;
}

function validatePositive(field: string, value: number, integer: boolean): number {
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new ProviderConfigError(
      field,
      `${field} must be a positive ${integer ? 'whole ' : ''}number`,
    );
  }
  return value;
}

function validateRetry(policy: ReadRetryPolicy): ReadRetryPolicy {
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1 || policy.attempts > 10) {
    throw new ProviderConfigError('readRetry.attempts', 'readRetry.attempts must be 1 to 10');
  }
  for (const key of ['baseDelayMs', 'maxDelayMs'] as const) {
    if (!Number.isFinite(policy[key]) || policy[key] < 0) {
      throw new ProviderConfigError(`readRetry.${key}`, `readRetry.${key} must be 0 or more`);
    }
  }
  if (policy.baseDelayMs > policy.maxDelayMs) {
    throw new ProviderConfigError('readRetry', 'readRetry.baseDelayMs exceeds maxDelayMs');
  }
  return policy;
}

/** Retry-After as delta-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

function networkWords(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the address could not be found (DNS)';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return 'the connection was cut';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection could not be opened in time';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'its security certificate was not accepted';
    default:
      return code ? `network error ${code}` : 'network error';
  }
}

/** Nothing reached the server, so even a create may be repeated with the same reference. */
function neverSent(code: string | undefined): boolean {
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

/** A one-line hint from an error body: its `message` when JSON, a note when HTML. */
function providerSaid(text: string | undefined): string {
  const trimmed = text?.trim();
  if (!trimmed) return '';
  if (trimmed.startsWith('<')) return ' The provider sent an HTML page instead of JSON.';
  let hint = trimmed;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (typeof parsed === 'object' && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      const found = [record.message, record.error, record.detail].find(
        (value): value is string => typeof value === 'string',
      );
      if (found) hint = found;
    }
  } catch {
    // Plain text is shown as is.
  }
  const oneLine = hint.replace(/\s+/g, ' ');
  return ` Provider said: "${oneLine.length > 200 ? `${oneLine.slice(0, 200)}...` : oneLine}".`;
}

function seconds(ms: number): string {
  const value = Math.round(ms / 100) / 10;
  return `${value} s`;
}

export function createProviderClient(config: ProviderClientConfig): ProviderClient {
  const baseUrl = validateBaseUrl('baseUrl', config.baseUrl);
  const payoutBaseUrl = validateBaseUrl('payoutBaseUrl', config.payoutBaseUrl);
  const timeZone = config.timeZone ?? DEFAULT_PROVIDER_TIME_ZONE;
  try {
    assertTimeZone(timeZone);
  } catch {
    throw new ProviderConfigError('timeZone', `timeZone is not a known IANA zone: ${timeZone}`);
  }
  const doFetch = config.fetch ?? globalThis.fetch;
  const timeoutMs = validatePositive('timeoutMs', config.timeoutMs ?? DEFAULT_TIMEOUT_MS, false);
  const maxResponseBytes = validatePositive(
    'maxResponseBytes',
    config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    true,
  );
  const retry = validateRetry(config.readRetry ?? DEFAULT_READ_RETRY);
  const sleep =
    config.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = config.random ?? Math.random;
  const schemas = createResponseSchemas(timeZone);
  const redact = [config.secretKey, config.accessToken];

  function fail(
    operation: ProviderOperation,
    code: ProviderErrorCode,
    message: string,
    extra: {
      httpStatus?: number;
      retryable?: boolean;
      retryAfterMs?: number;
      field?: string;
      cause?: unknown;
    } = {},
  ): ProviderError {
    return new ProviderError({ code, operation, message, redact, ...extra });
  }

  function invalid(operation: ProviderOperation, field: string, problem: string): ProviderError {
    return fail(
      operation,
      'INVALID_REQUEST',
      `Cannot send the request for ${OPERATION_LABEL[operation]}: ${problem}. Nothing was sent to the provider.`,
      { field, retryable: false },
    );
  }

  function endpoint(base: URL, path: string, query: Readonly<Record<string, string>> = {}): string {
    const search = Object.entries(query)
      .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
      .join('&');
    return `${base.origin}${base.pathname.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`;
  }

  function secretHeaders(operation: ProviderOperation): Record<string, string> {
    if (!config.secretKey) {
      throw invalid(operation, 'secretKey', 'no secret key is set for this environment');
    }
    if (!HEADER_SAFE.test(config.secretKey)) {
      throw invalid(
        operation,
        'secretKey',
        'the secret key contains spaces or characters that cannot be sent',
      );
    }
    return { secretKey: config.secretKey, Accept: 'application/json' };
  }

  function checkSignal(operation: ProviderOperation, signal: AbortSignal | undefined): void {
    if (signal?.aborted) {
      throw fail(operation, 'ABORTED', `Cancelled while ${OPERATION_LABEL[operation]}.`, {
        retryable: false,
      });
    }
  }

  /** Reads a body up to `cap` bytes; past that, cancels the stream instead of draining it. */
  async function readCapped(response: Response, cap: number): Promise<Uint8Array> {
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > cap) {
      await response.body?.cancel().catch(() => undefined);
      throw new BodyTooLarge();
    }
    if (!response.body) return new Uint8Array(0);
    // Node's fetch types the body's chunks as `any`; they are bytes.
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > cap) {
        await reader.cancel().catch(() => undefined);
        throw new BodyTooLarge();
      }
      chunks.push(value);
    }
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return bytes;
  }

  /** One HTTP exchange under one timeout that covers connect, headers and body. */
  async function exchange(request: Exchange, signal: AbortSignal | undefined): Promise<Answer> {
    const { operation } = request;
    checkSignal(operation, signal);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const where = `${new URL(request.url).origin}`;

    const transportError = (error: unknown): ProviderError => {
      if (signal?.aborted) {
        return fail(operation, 'ABORTED', `Cancelled while ${OPERATION_LABEL[operation]}.`, {
          retryable: false,
          cause: error,
        });
      }
      if (timedOut) {
        return fail(
          operation,
          'TIMEOUT',
          `The provider at ${where} did not answer within ${seconds(timeoutMs)} while ${OPERATION_LABEL[operation]}.` +
            (operation === 'create'
              ? ' The virtual account may or may not have been created; start the sale again so a new reference is used.'
              : ' Check the internet connection; the provider may be slow.'),
          { retryable: operation !== 'create', cause: error },
        );
      }
      const code = causeCode(error);
      return fail(
        operation,
        'NETWORK',
        `Could not reach the provider at ${where} (${networkWords(code)}) while ${OPERATION_LABEL[operation]}. Check the internet connection and the provider address in Settings.`,
        { retryable: operation !== 'create' || neverSent(code), cause: error },
      );
    };

    try {
      let response: Response;
      try {
        response = await doFetch(request.url, {
          method: request.method,
          headers: request.headers,
          ...(request.body === undefined ? {} : { body: request.body }),
          signal: controller.signal,
          // A redirect would carry the secretKey header to wherever it points.
          redirect: 'manual',
        });
      } catch (error) {
        throw transportError(error);
      }
      const ok = response.status >= 200 && response.status < 300;
      let bytes: Uint8Array | undefined;
      try {
        bytes = await readCapped(
          response,
          ok ? maxResponseBytes : Math.min(ERROR_BODY_BYTES, maxResponseBytes),
        );
      } catch (error) {
        if (error instanceof BodyTooLarge) {
          if (ok) {
            throw fail(
              operation,
              'MALFORMED_RESPONSE',
              `The provider's answer while ${OPERATION_LABEL[operation]} was larger than ${maxResponseBytes} bytes and was not read.`,
              { httpStatus: response.status, retryable: false },
            );
          }
        } else if (ok || timedOut || signal?.aborted) {
          throw transportError(error);
        }
        // An error status whose body could not be read: the status alone still says enough.
      }
      let text: string | undefined;
      try {
        text =
          bytes === undefined ? undefined : new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch (error) {
        if (ok) {
          throw fail(
            operation,
            'MALFORMED_RESPONSE',
            `The provider's answer while ${OPERATION_LABEL[operation]} was not valid UTF-8 text.`,
            { httpStatus: response.status, retryable: false, cause: error },
          );
        }
      }
      return { status: response.status, headers: response.headers, text };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Throws the ProviderError for a non-2xx answer, per section 7 and our own mapping. */
  function throwForStatus(request: Exchange, answer: Answer): void {
    const { operation, subject } = request;
    const { status } = answer;
    if (status >= 200 && status < 300) return;
    const label = OPERATION_LABEL[operation];
    const said = providerSaid(answer.text);
    const about = subject ? ` for ${subject}` : '';
    const base = { httpStatus: status };
    const wrongKeyHint =
      operation === 'balance'
        ? 'Check the payout access token in Settings; it may have expired.'
        : 'Check the secret key in Settings; staging and production keys are different.';

    if (status === 400) {
      throw fail(
        operation,
        'BAD_REQUEST',
        `The provider rejected the request as invalid (HTTP 400) while ${label}${about}.${said} Check that the secret key is set and the details are complete.`,
        { ...base, retryable: false },
      );
    }
    if (status === 401 || status === 403) {
      throw fail(
        operation,
        'UNAUTHORIZED',
        `The provider refused our credentials (HTTP ${status}) while ${label}. ${wrongKeyHint}${said}`,
        { ...base, retryable: false },
      );
    }
    if (status === 404) {
      if (operation === 'create') {
        throw fail(
          operation,
          'SETTLEMENT_ACCOUNT_NOT_FOUND',
          `The provider has no settlement account for this secret key (HTTP 404). Check that the key belongs to this environment, or ask the provider's support team.${said}`,
          { ...base, retryable: false },
        );
      }
      if (operation === 'status') {
        throw fail(
          operation,
          'STATUS_NOT_FOUND',
          `The provider has no payment yet${about} (HTTP 404).`,
          { ...base, retryable: true },
        );
      }
      throw fail(
        operation,
        'NOT_FOUND',
        operation === 'balance'
          ? `The provider could not find ${subject ?? 'the payout account'} (HTTP 404). Check the payout account number in Settings.${said}`
          : `The provider answered "not found" (HTTP 404) while ${label}. Check the provider address in Settings.${said}`,
        { ...base, retryable: false },
      );
    }
    if (status === 409 && operation === 'create') {
      throw fail(
        operation,
        'REFERENCE_IN_USE',
        `The provider already has a virtual account${about} (HTTP 409). Start the sale again so a new reference is used.${said}`,
        { ...base, retryable: false },
      );
    }
    if (status === 409 && operation === 'status') {
      throw fail(
        operation,
        'STATUS_PENDING',
        `The payment${about} is still being processed by the bank network (HTTP 409). Check again shortly.`,
        { ...base, retryable: true },
      );
    }
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), Date.now());
      throw fail(
        operation,
        'RATE_LIMITED',
        `The provider is limiting requests (HTTP 429) while ${label}.${retryAfterMs === undefined ? ' Try again in a minute.' : ` Try again in ${seconds(retryAfterMs)}.`}`,
        { ...base, retryable: true, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
      );
    }
    if (status >= 500 && status <= 599) {
      throw fail(
        operation,
        'SERVER_ERROR',
        `The provider had an internal error (HTTP ${status}) while ${label}.` +
          (operation === 'create'
            ? ' The virtual account may or may not have been created; start the sale again so a new reference is used.'
            : ' This is on the provider side; try again in a few minutes.') +
          said,
        { ...base, retryable: operation !== 'create' },
      );
    }
    throw fail(
      operation,
      'UNEXPECTED_STATUS',
      `The provider answered with unexpected HTTP status ${status} while ${label}.${said}`,
      { ...base, retryable: false },
    );
  }

  function parseBody<T>(request: Exchange, answer: Answer, schema: z.ZodType<T>): T {
    const { operation } = request;
    const label = OPERATION_LABEL[operation];
    const malformed = (detail: string, cause?: unknown): ProviderError =>
      fail(
        operation,
        'MALFORMED_RESPONSE',
        `The provider's answer while ${label} could not be understood: ${detail}. Report this to the provider's support team if it keeps happening.`,
        { httpStatus: answer.status, retryable: false, ...(cause === undefined ? {} : { cause }) },
      );
    const text = answer.text?.trim() ?? '';
    if (!text) throw malformed('the body was empty');
    if (text.startsWith('<')) {
      throw malformed('it was an HTML page, not JSON (often a gateway or proxy error page)');
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw malformed('it was not valid JSON', error);
    }
    const result = schema.safeParse(json);
    if (!result.success) throw malformed(describeIssues(result.error));
    return result.data;
  }

  async function run<T>(
    request: Exchange,
    schema: z.ZodType<T>,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const answer = await exchange(request, signal);
    throwForStatus(request, answer);
    return parseBody(request, answer, schema);
  }

  /** Full-jitter exponential backoff; undefined when Retry-After asks for more than the cap. */
  function retryDelay(attempt: number, retryAfterMs: number | undefined): number | undefined {
    if (retryAfterMs !== undefined && retryAfterMs > retry.maxDelayMs) return undefined;
    const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
    const jittered = Math.floor(random() * ceiling);
    return Math.min(retry.maxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
  }

  async function read<T>(
    request: Exchange,
    schema: z.ZodType<T>,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run(request, schema, signal);
      } catch (error) {
        if (!(error instanceof ProviderError) || !READ_RETRY_CODES.has(error.code)) throw error;
        const delay =
          attempt < retry.attempts ? retryDelay(attempt, error.retryAfterMs) : undefined;
        if (delay === undefined) {
          if (attempt === 1) throw error;
          throw new ProviderError({
            code: error.code,
            operation: error.operation,
            message: `${error.message} (gave up after ${attempt} attempts)`,
            ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
            retryable: error.retryable,
            ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
            cause: error.cause,
            redact,
          });
        }
        await sleep(delay);
        checkSignal(request.operation, signal);
      }
    }
  }

  function validateReference(operation: ProviderOperation, reference: string): void {
    if (typeof reference !== 'string' || !REFERENCE_PATTERN.test(reference)) {
      throw invalid(
        operation,
        'reference',
        'reference must be 1 to 100 characters of A-Z, a-z, 0-9, _ or -',
      );
    }
  }

  async function createVirtualAccount(
    input: CreateVirtualAccountInput,
    options: CallOptions = {},
  ): Promise<VirtualAccount> {
    const parsed = createVirtualAccountInputSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const unknownKey = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
      const field = unknownKey ?? String(issue?.path[0] ?? 'input');
      const message = issue?.message ?? 'invalid input';
      throw invalid(
        'create',
        field,
        unknownKey !== undefined
          ? `${unknownKey} is not a field of a create request`
          : message.includes(field)
            ? message
            : `${field}: ${message}`,
      );
    }
    const headers = { ...secretHeaders('create'), 'Content-Type': 'application/json' };
    const request: Exchange = {
      operation: 'create',
      method: 'POST',
      url: endpoint(baseUrl, '/virtual/new-account'),
      headers,
      body: JSON.stringify(toCreateBody(parsed.data)),
      subject: `reference ${input.reference}`,
    };
    const account = await run(request, schemas.createResponse, options.signal);
    if (account.externalReference !== input.reference) {
      throw fail(
        'create',
        'MALFORMED_RESPONSE',
        `The provider answered the create request for reference ${input.reference} with an account for another reference. Do not use this account; report it to the provider's support team.`,
        { httpStatus: 200, retryable: false },
      );
    }
    return account;
  }

  async function getPaymentStatus(
    reference: string,
    options: CallOptions = {},
  ): Promise<PaymentStatusRecord> {
    validateReference('status', reference);
    const request: Exchange = {
      operation: 'status',
      method: 'GET',
      url: endpoint(baseUrl, '/virtual/status', { reference }),
      headers: secretHeaders('status'),
      subject: `reference ${reference}`,
    };
    const record = await read(request, schemas.statusResponse, options.signal);
    // A record for another reference must never confirm this sale.
    if (record.reference !== reference) {
      throw fail(
        'status',
        'MALFORMED_RESPONSE',
        `The provider answered the status lookup for reference ${reference} with a record for another reference.`,
        { httpStatus: 200, retryable: false },
      );
    }
    return record;
  }

  async function checkPayment(reference: string, options: CallOptions = {}): Promise<PaymentCheck> {
    let record: PaymentStatusRecord;
    try {
      record = await getPaymentStatus(reference, options);
    } catch (error) {
      if (error instanceof ProviderError && error.code === 'STATUS_NOT_FOUND') {
        return { kind: 'not_found' };
      }
      if (error instanceof ProviderError && error.code === 'STATUS_PENDING') {
        return { kind: 'pending' };
      }
      throw error;
    }
    switch (record.status) {
      case 'success':
        return { kind: 'confirmed', record };
      case 'pending':
        return { kind: 'pending', record };
      case 'failed':
        return { kind: 'failed', record };
      case 'unknown':
        return { kind: 'unknown', record };
    }
  }

  async function listTransactions(
    page: TransactionPageRequest,
    options: CallOptions = {},
  ): Promise<TransactionPage> {
    if (!Number.isSafeInteger(page.offset) || page.offset < 0) {
      throw invalid('list', 'offset', 'offset must be a whole number, 0 or more');
    }
    if (!Number.isSafeInteger(page.limit) || page.limit < 1 || page.limit > MAX_PAGE_LIMIT) {
      throw invalid('list', 'limit', `limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}`);
    }
    const request: Exchange = {
      operation: 'list',
      method: 'GET',
      url: endpoint(baseUrl, '/virtual/transactions', {
        offset: String(page.offset),
        limit: String(page.limit),
      }),
      headers: secretHeaders('list'),
    };
    const answer = await read(request, schemas.listResponse, options.signal);
    // A row the schema refused is set aside with its place in the whole listing, not the page.
    return answer.unreadable.length === 0
      ? answer
      : {
          ...answer,
          unreadable: answer.unreadable.map((row) => ({
            ...row,
            position: page.offset + row.position,
          })),
        };
  }

  async function getPayoutAccount(
    accountId: string,
    options: CallOptions = {},
  ): Promise<PayoutAccountWithBalance> {
    if (typeof accountId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(accountId)) {
      throw invalid(
        'balance',
        'accountId',
        'accountId must be the payout account number (letters and digits only)',
      );
    }
    if (!config.accessToken) {
      throw invalid('balance', 'accessToken', 'no payout access token is set for this environment');
    }
    if (!HEADER_SAFE.test(config.accessToken)) {
      throw invalid(
        'balance',
        'accessToken',
        'the access token contains spaces or characters that cannot be sent',
      );
    }
    const subject = `payout account ${accountId}`;
    const request: Exchange = {
      operation: 'balance',
      method: 'GET',
      url: endpoint(payoutBaseUrl, '/request/company/get-user-account', { accountId }),
      headers: {
        Authorization: `Bearer ${config.accessToken}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      subject,
    };
    const account = await read(request, schemas.payoutResponse, options.signal);
    if (account.id !== accountId) {
      throw fail(
        'balance',
        'MALFORMED_RESPONSE',
        `The provider answered the balance lookup for ${subject} with another account.`,
        { httpStatus: 200, retryable: false },
      );
    }
    const available = account.balances.filter((b) => b.balanceType === 'AvailableBalance');
    if (available.length === 0) {
      throw fail(
        'balance',
        'NO_AVAILABLE_BALANCE',
        `The provider's answer for ${subject} has no AvailableBalance entry, so the amount available for payout is unknown (it is not zero). Try again later or ask the provider's support team.`,
        { httpStatus: 200, retryable: false },
      );
    }
    const naira = available.filter((b) => b.currency === 'NGN');
    const [chosen] = naira.length === 1 ? naira : available.length === 1 ? available : [];
    if (!chosen || chosen.currency !== 'NGN') {
      throw fail(
        'balance',
        'MALFORMED_RESPONSE',
        `The provider's answer for ${subject} has no single AvailableBalance in NGN (found ${available.length}, currencies ${available.map((b) => b.currency).join(', ')}).`,
        { httpStatus: 200, retryable: false },
      );
    }
    return { ...account, availableBalanceKobo: chosen.valueKobo };
  }

  return {
    createVirtualAccount,
    getPaymentStatus,
    checkPayment,
    listTransactions,
    getPayoutAccount,
  };
}
