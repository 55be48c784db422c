import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import type { Logger } from '#main/logging/logger';
import { matchesAnySecret } from '#main/security/constant-time';
import { parseCallbackBody, type ParsedCallback } from './callback-parser';
import { createRateLimiter } from './rate-limiter';
import type { CallbackInbox, RawCallbackRecord, StoredCallback } from './types';
import { AppError, type AppErrorCode } from '#shared/errors';

export const CALLBACK_PATH_PREFIX = '/callbacks/';
/** 22 base64url characters carry 132 bits: the shortest token the listener accepts. */
export const MIN_CALLBACK_TOKEN_LENGTH = 22;
/** What the record says instead of the path: the token is a credential and is never stored. */
export const STORED_CALLBACK_PATH = '/callbacks/:token';

export const WEBHOOK_DEFAULTS = {
  perAddressPerMinute: 600,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  maxBodyBytes: 64 * 1024,
} as const;

export interface WebhookListenerOptions {
  /** Default 0: a free port. The host is always 127.0.0.1. */
  readonly port?: number;
  /**
   * The path tokens valid right now, newest first (callbackPath() uses the first). During a
   * rotation the previous token stays in the list for a while so in-flight sales still land.
   */
  readonly tokens: () => readonly string[];
  readonly inbox: CallbackInbox;
  /** Called after the provider has had its answer; must not throw (errors are logged). */
  readonly onCallback: (stored: StoredCallback) => void;
  /**
   * The till's own callback self-test (tunnel/callback-self-test.ts): true when the body is a
   * self-test the till is waiting for. Such a request is answered 200 and is neither stored nor
   * handed to onCallback: it proves the path, it is no payment news.
   */
  readonly selfTest?: (body: string) => boolean;
  readonly logger: Logger;
  readonly now?: () => number;
  readonly rateLimit?: { readonly perAddressPerMinute: number };
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  readonly maxBodyBytes?: number;
}

export interface WebhookListener {
  readonly port: number;
  /** '/callbacks/<newest token>'; throws NO_CALLBACK_TOKEN when no valid token is configured. */
  callbackPath(): string;
  close(): Promise<void>;
}

export type WebhookListenerErrorCode = Extract<
  AppErrorCode,
  'NO_CALLBACK_TOKEN' | 'INVALID_OPTIONS' | 'LISTEN_FAILED'
>;

export class WebhookListenerError extends AppError<WebhookListenerErrorCode> {
  constructor(code: WebhookListenerErrorCode, message: string) {
    super(code, message);
    this.name = 'WebhookListenerError';
  }
}

/** A fresh path token: 256 random bits, base64url (43 characters). */
export function generateCallbackToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]+$/;

export function isUsableCallbackToken(token: string): boolean {
  return token.length >= MIN_CALLBACK_TOKEN_LENGTH && TOKEN_SHAPE.test(token);
}

/** Header names dropped before storage: credentials of any kind, whoever sent them. */
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|secretkey)$|secret|token|passw|api[-_]?key|credential/i;

const RESPONSE_OK = '{"ok":true}';

type BodyOutcome =
  | { readonly kind: 'complete'; readonly body: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'aborted' };

/**
 * The payment-callback listener: node:http on 127.0.0.1, the only thing the tunnel forwards to.
 *
 * Order of checks: rate limit, path token (404 for anything else, always the same empty answer),
 * method (405), declared size (413 before reading), then the body is read up to the limit (413
 * and the connection cut when it grows past it), stored durably, and only then answered: 200,
 * or 400/415 for a body that cannot be read as JSON or a form (still stored, so nothing is
 * lost). If the inbox cannot store, 503, so the provider retries. The sales engine hears about
 * each stored callback after the answer; the body is only a hint and never means "paid".
 */
export async function startWebhookListener(
  options: WebhookListenerOptions,
): Promise<WebhookListener> {
  const now = options.now ?? Date.now;
  const { inbox, logger } = options;
  const headersTimeoutMs = options.headersTimeoutMs ?? WEBHOOK_DEFAULTS.headersTimeoutMs;
  const requestTimeoutMs = options.requestTimeoutMs ?? WEBHOOK_DEFAULTS.requestTimeoutMs;
  const maxBodyBytes = options.maxBodyBytes ?? WEBHOOK_DEFAULTS.maxBodyBytes;
  const perMinute = options.rateLimit?.perAddressPerMinute ?? WEBHOOK_DEFAULTS.perAddressPerMinute;
  if (!(headersTimeoutMs > 0 && requestTimeoutMs >= headersTimeoutMs)) {
    throw new WebhookListenerError(
      'INVALID_OPTIONS',
      'headersTimeoutMs must be positive and not longer than requestTimeoutMs',
    );
  }
  if (!(maxBodyBytes > 0 && perMinute > 0)) {
    throw new WebhookListenerError(
      'INVALID_OPTIONS',
      'maxBodyBytes and the rate limit must be positive',
    );
  }
  const limiter = createRateLimiter({ perMinute, now });
  let closed = false;

  function validTokens(): readonly string[] {
    return options.tokens().filter(isUsableCallbackToken);
  }

  /** The query string of a request to a valid callback path, or null for anything else. */
  function matchCallbackPath(url: string | undefined, tokens: readonly string[]): string | null {
    if (url === undefined || !url.startsWith(CALLBACK_PATH_PREFIX)) return null;
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const token = path.slice(CALLBACK_PATH_PREFIX.length);
    // Compared against every token even when its shape is wrong, so the time says nothing.
    const matches = matchesAnySecret(token, tokens);
    return matches && isUsableCallbackToken(token) ? (queryAt < 0 ? '' : url.slice(queryAt)) : null;
  }

  /** An answer without a body. `close` when the request body was not read to its end. */
  function reply(
    response: ServerResponse,
    status: number,
    extra: Readonly<Record<string, string>> = {},
    close = true,
  ): void {
    response.writeHead(status, {
      ...extra,
      'content-length': '0',
      'cache-control': 'no-store',
      ...(close ? { connection: 'close' } : {}),
    });
    response.end();
  }

  function handle(
    request: IncomingMessage,
    response: ServerResponse,
    expectsContinue: boolean,
  ): void {
    const receivedAt = now();
    const remoteAddress = clientAddress(request);
    if (!limiter.allow(remoteAddress)) {
      logger.debug({ remoteAddress }, 'webhook: rate limited');
      const retryAfter = Math.max(1, Math.ceil(limiter.retryAfterMs() / 1000));
      reply(response, 429, { 'retry-after': String(retryAfter) });
      return;
    }
    const tokens = validTokens();
    const query = matchCallbackPath(request.url, tokens);
    if (query === null) {
      reply(response, 404);
      return;
    }
    const storedQuery = scrubTokens(query, tokens);
    if (request.method !== 'POST') {
      reply(response, 405, { allow: 'POST' });
      return;
    }
    const declared = request.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBodyBytes) {
      logger.warn(
        { remoteAddress, declared: Number(declared) },
        'webhook: body too large (declared)',
      );
      reply(response, 413);
      return;
    }
    // Only now, with path, method and size accepted, is the client invited to send its body.
    if (expectsContinue) response.writeContinue();
    readBoundedBody(request, maxBodyBytes, (outcome) => void onBody(outcome));

    async function onBody(
      outcome: Parameters<Parameters<typeof readBoundedBody>[2]>[0],
    ): Promise<void> {
      if (outcome.kind === 'aborted') return; // the client went away or timed out: no one to answer
      if (outcome.kind === 'too-large') {
        logger.warn({ remoteAddress }, 'webhook: body too large (streamed)');
        reply(response, 413);
        // Cut the connection once the answer is out, rather than reading the rest.
        response.once('finish', () => request.socket.destroySoon());
        return;
      }
      const contentType = headerText(request.headers['content-type']);
      const body = outcome.body.toString('utf8');
      if (options.selfTest?.(body) === true) {
        logger.info({ remoteAddress }, 'webhook: callback self-test came back');
        response.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(RESPONSE_OK)),
          'cache-control': 'no-store',
        });
        response.end(RESPONSE_OK);
        return;
      }
      const parsed = parseCallbackBody(body, contentType);
      const record: RawCallbackRecord = {
        receivedAt,
        remoteAddress,
        method: request.method ?? 'POST',
        path: STORED_CALLBACK_PATH + storedQuery,
        contentType,
        headers: storableHeaders(request, tokens),
        body,
        parseStatus: parsed.parseStatus,
        hint: parsed.hint,
      };
      let id: number;
      try {
        id = (await inbox.store(record)).id;
      } catch (error) {
        logger.error({ err: error }, 'webhook: could not store callback, answering 503');
        reply(response, 503, { 'retry-after': '5' }, false);
        return;
      }
      answerStored(response, parsed);
      logger.info(
        {
          callbackId: id,
          parseStatus: parsed.parseStatus,
          reference: parsed.hint?.reference,
          sessionId: parsed.hint?.sessionId,
        },
        'webhook: callback stored',
      );
      // After the answer: confirmation (a provider round trip) must never delay it.
      const stored: StoredCallback = { id, hint: parsed.hint, parseStatus: parsed.parseStatus };
      setImmediate(() => {
        if (closed) return; // stored: the engine picks unconfirmed records up on its next start
        try {
          options.onCallback(stored);
        } catch (error) {
          logger.error({ err: error, callbackId: id }, 'webhook: onCallback failed');
        }
      });
    }
  }

  function answerStored(response: ServerResponse, parsed: ParsedCallback): void {
    if (parsed.parseStatus !== 'malformed') {
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(RESPONSE_OK)),
        'cache-control': 'no-store',
      });
      response.end(RESPONSE_OK);
      return;
    }
    logger.warn({ reason: parsed.reason }, 'webhook: unreadable callback stored');
    reply(response, parsed.reason === 'unsupported-content-type' ? 415 : 400, {}, false);
  }

  function guarded(
    request: IncomingMessage,
    response: ServerResponse,
    expectsContinue: boolean,
  ): void {
    try {
      handle(request, response, expectsContinue);
    } catch (error) {
      logger.error({ err: error }, 'webhook: request failed');
      if (!response.headersSent) reply(response, 500);
      else response.destroy();
    }
  }

  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Node checks those two timeouts on this interval (30 s by default, far too coarse).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
      noDelay: true,
    },
    (request, response) => guarded(request, response, false),
  );
  // Without this listener Node answers "100 Continue" to every Expect header before any check.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) =>
    guarded(request, response, true),
  );
  // Idle sockets (a client that opened a connection and went quiet) are destroyed.
  server.setTimeout(requestTimeoutMs);

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new WebhookListenerError('LISTEN_FAILED', `Webhook listener: ${error.message}`)),
    );
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, 'webhook listener started on 127.0.0.1');

  return {
    port,
    callbackPath() {
      const current = validTokens()[0];
      if (current === undefined) {
        throw new WebhookListenerError(
          'NO_CALLBACK_TOKEN',
          'No valid callback token is configured',
        );
      }
      return CALLBACK_PATH_PREFIX + current;
    },
    async close() {
      if (closed) return;
      closed = true;
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await done;
    },
  };
}

/**
 * Reads the body into memory up to `limit` bytes. Past the limit it stops listening at once and
 * reports 'too-large', whatever Content-Length said (lying, absent or chunked).
 */
function readBoundedBody(
  request: IncomingMessage,
  limit: number,
  done: (outcome: BodyOutcome) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  function settle(outcome: BodyOutcome): void {
    if (settled) return;
    settled = true;
    request.off('data', onData);
    done(outcome);
  }
  function onData(chunk: Buffer): void {
    size += chunk.length;
    if (size > limit) {
      chunks.length = 0;
      request.pause();
      settle({ kind: 'too-large' });
      return;
    }
    chunks.push(chunk);
  }
  request.on('data', onData);
  request.once('end', () => settle({ kind: 'complete', body: Buffer.concat(chunks, size) }));
  request.once('error', () => settle({ kind: 'aborted' }));
  request.once('close', () => settle({ kind: 'aborted' }));
}

function headerText(value: string | readonly string[] | undefined): string | null {
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.join(', ');
}

/**
 * The listener binds to 127.0.0.1, so every peer is local: the ngrok agent, the shop's reverse
 * proxy or the sandbox. Behind a proxy the sender is the last X-Forwarded-For entry (the one the
 * proxy appended; earlier entries come from the client and may be forged).
 */
function clientAddress(request: IncomingMessage): string {
  const peer = request.socket.remoteAddress ?? 'unknown';
  const forwarded = headerText(request.headers['x-forwarded-for']);
  const last = forwarded?.split(',').at(-1)?.trim();
  return last !== undefined && isIP(last) !== 0 ? last : peer;
}

function scrubTokens(text: string, tokens: readonly string[]): string {
  let out = text;
  for (const token of tokens) out = out.split(token).join(':token');
  return out;
}

function storableHeaders(
  request: IncomingMessage,
  tokens: readonly string[],
): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || SECRET_HEADER.test(name)) continue;
    // A proxy may echo the original URL (Referer, X-Original-URL…): the token must not survive.
    out[name] = scrubTokens(headerText(value) ?? '', tokens);
  }
  return out;
}
