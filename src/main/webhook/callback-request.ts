/**
 * One request to the webhook listener, in the listener's order of checks: rate limit, path token
 * (404 for anything else, always the same empty answer), method (405), declared size (413 before
 * reading); then the body is read up to the limit (413 and the connection cut past it), stored
 * durably, and only then answered (callback-answer.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { Logger } from '#main/logging/logger';
import type { AfterAnswer } from './after-answer';
import { storeAndAnswer } from './callback-answer';
import { headerText, reply, scrubTokens } from './request-parts';
import type { RateLimiter } from '#main/security/rate-limiter';
import type { CallbackInbox } from './types';

export const CALLBACK_PATH_PREFIX = '/callbacks/';
/** 22 base64url characters carry 132 bits: the shortest token the listener accepts. */
export const MIN_CALLBACK_TOKEN_LENGTH = 22;

const TOKEN_SHAPE = /^[A-Za-z0-9_-]+$/;

export function isUsableCallbackToken(token: string): boolean {
  return token.length >= MIN_CALLBACK_TOKEN_LENGTH && TOKEN_SHAPE.test(token);
}

/** What every request of one listener shares. */
export interface ListenerContext {
  readonly logger: Logger;
  readonly now: () => number;
  readonly limiter: RateLimiter;
  readonly maxBodyBytes: number;
  readonly inbox: CallbackInbox;
  /** Logs the stored callbacks and hands them to the engine once their batch is answered. */
  readonly afterAnswer: AfterAnswer;
  readonly selfTest: ((body: string) => boolean) | undefined;
  /** The usable path tokens now, newest first. */
  readonly validTokens: () => readonly string[];
  /** matchesAnySecret, remembering the digests of the tokens (security/constant-time.ts). */
  readonly matchesToken: (given: string, tokens: readonly string[]) => boolean;
}

/** A request that passed the checks before its body: who sent it, and what may be stored. */
export interface AdmittedRequest {
  readonly receivedAt: number;
  readonly remoteAddress: string;
  readonly tokens: readonly string[];
  /** The query string with any token scrubbed. */
  readonly storedQuery: string;
}

export type BodyOutcome =
  | { readonly kind: 'complete'; readonly body: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'aborted' };

export function handleCallbackRequest(
  ctx: ListenerContext,
  request: IncomingMessage,
  response: ServerResponse,
  expectsContinue: boolean,
): void {
  const admitted = admit(ctx, request, response);
  if (!admitted) return;
  // Only now, with path, method and size accepted, is the client invited to send its body.
  if (expectsContinue) response.writeContinue();
  readBoundedBody(request, ctx.maxBodyBytes, (outcome) => {
    if (outcome.kind === 'aborted') return; // the client went away or timed out: no one to answer
    if (outcome.kind === 'too-large') {
      ctx.logger.warn(
        { remoteAddress: admitted.remoteAddress },
        'webhook: body too large (streamed)',
      );
      reply(response, 413);
      // Cut the connection once the answer is out, rather than reading the rest.
      response.once('finish', () => request.socket.destroySoon());
      return;
    }
    void storeAndAnswer(ctx, request, response, admitted, outcome.body);
  });
}

/** The checks before the body; answers and returns null for a request that fails one. */
function admit(
  ctx: ListenerContext,
  request: IncomingMessage,
  response: ServerResponse,
): AdmittedRequest | null {
  const { logger, limiter } = ctx;
  const receivedAt = ctx.now();
  const remoteAddress = clientAddress(request);
  if (!limiter.allow(remoteAddress)) {
    logger.debug({ remoteAddress }, 'webhook: rate limited');
    const retryAfter = Math.max(1, Math.ceil(limiter.retryAfterMs() / 1000));
    reply(response, 429, { 'retry-after': String(retryAfter) });
    return null;
  }
  const tokens = ctx.validTokens();
  const query = matchCallbackPath(request.url, tokens, ctx.matchesToken);
  if (query === null) {
    reply(response, 404);
    return null;
  }
  const storedQuery = scrubTokens(query, tokens);
  if (request.method !== 'POST') {
    reply(response, 405, { allow: 'POST' });
    return null;
  }
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > ctx.maxBodyBytes) {
    logger.warn(
      { remoteAddress, declared: Number(declared) },
      'webhook: body too large (declared)',
    );
    reply(response, 413);
    return null;
  }
  return { receivedAt, remoteAddress, tokens, storedQuery };
}

/** The query string of a request to a valid callback path, or null for anything else. */
function matchCallbackPath(
  url: string | undefined,
  tokens: readonly string[],
  matchesToken: ListenerContext['matchesToken'],
): string | null {
  if (url === undefined || !url.startsWith(CALLBACK_PATH_PREFIX)) return null;
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const token = path.slice(CALLBACK_PATH_PREFIX.length);
  // Compared against every token even when its shape is wrong, so the time says nothing.
  const matches = matchesToken(token, tokens);
  return matches && isUsableCallbackToken(token) ? (queryAt < 0 ? '' : url.slice(queryAt)) : null;
}

/**
 * Reads the body into memory up to `limit` bytes. Past the limit it stops reading at once and
 * reports 'too-large', whatever Content-Length said (lying, absent or chunked).
 */
function readBoundedBody(
  request: IncomingMessage,
  limit: number,
  done: (outcome: BodyOutcome) => void,
): void {
  const body = new BoundedBody(request, limit, done);
  // Anonymous listeners: a named closure per request costs the bench's tsx build a
  // defineProperty call each (esbuild's keepNames), on every callback.
  // `on`, not `once` (a wrapper per listener per request): the body settles once anyway.
  request.on('data', (chunk: Buffer) => body.add(chunk));
  request.on('end', () => body.end());
  request.on('error', () => body.settle({ kind: 'aborted' }));
  request.on('close', () => body.settle({ kind: 'aborted' }));
}

/** One request's body so far; settles once, and ignores whatever arrives after. */
class BoundedBody {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;

  constructor(
    private readonly request: IncomingMessage,
    private readonly limit: number,
    private readonly done: (outcome: BodyOutcome) => void,
  ) {}

  add(chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.chunks.length = 0;
      this.request.pause();
      this.settle({ kind: 'too-large' });
      return;
    }
    this.chunks.push(chunk);
  }

  end(): void {
    if (this.settled) return;
    this.settle({ kind: 'complete', body: Buffer.concat(this.chunks, this.size) });
  }

  settle(outcome: BodyOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.done(outcome);
  }
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
