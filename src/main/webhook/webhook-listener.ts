import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '#main/logging/logger';
import { createSecretMatcher } from '#main/security/constant-time';
import { createAfterAnswer } from './after-answer';
import {
  CALLBACK_PATH_PREFIX,
  handleCallbackRequest,
  isUsableCallbackToken,
  type ListenerContext,
} from './callback-request';
import { reply } from './request-parts';
import { createRateLimiter } from '#main/security/rate-limiter';
import type { CallbackInbox, StoredCallback } from './types';
import { AppError, type AppErrorCode } from '#shared/errors';

export {
  CALLBACK_PATH_PREFIX,
  MIN_CALLBACK_TOKEN_LENGTH,
  isUsableCallbackToken,
} from './callback-request';
export { STORED_CALLBACK_PATH } from './callback-answer';

/** How long a kept-alive connection may sit idle between callbacks (Node's own default). */
const KEEP_ALIVE_MS = 5_000;

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
  const afterAnswer = createAfterAnswer({
    logger,
    onCallback: options.onCallback,
    closed: () => closed,
  });
  const context: ListenerContext = {
    logger,
    now,
    limiter,
    maxBodyBytes,
    inbox,
    afterAnswer,
    selfTest: options.selfTest,
    validTokens,
    matchesToken: createSecretMatcher(),
  };

  function guarded(
    request: IncomingMessage,
    response: ServerResponse,
    expectsContinue: boolean,
  ): void {
    try {
      handleCallbackRequest(context, request, response, expectsContinue);
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
  // A kept-alive connection left idle after its answer is closed (Node's own idle rule, no timer
  // refreshed on every read and write: that cost each callback half a microsecond); a client
  // that opens a connection and sends nothing, or sends slowly, meets the two timeouts above.
  server.keepAliveTimeout = Math.min(KEEP_ALIVE_MS, requestTimeoutMs);
  // Without this listener Node answers "100 Continue" to every Expect header before any check.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) =>
    guarded(request, response, true),
  );

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
      afterAnswer.close();
    },
  };
}
