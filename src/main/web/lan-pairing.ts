/**
 * POST /api/pair on the LAN listener: a counter trades a one-time pairing code for its token.
 * Wrong codes are counted per address; an address past the limit is refused for a minute.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonOrRefuse, sendError, sendJson } from './json-io';
import { createRateLimiter } from '#main/security/rate-limiter';
import { createBlockList } from '#main/hub/block-list';
import type { Hub } from '#main/hub/hub-types';
import { PairingError, type PairingErrorCode } from '#main/hub/pairing-codes';
import type { Logger } from '#main/logging/logger';

/** The core's coded BUSY error (switching environments): the counter should simply try again. */
export function isBusy(error: unknown): error is Error & { readonly code: 'BUSY' } {
  return error instanceof Error && (error as Error & { code?: unknown }).code === 'BUSY';
}

/** Wrong pairing codes an address may send in a minute before it is refused for the rest of it. */
export const WRONG_PAIRING_CODES_PER_MINUTE = 10;
/** Codes a counter's page may meet: a used or expired link (410), anything else wrong (400). */
const GONE_CODES: ReadonlySet<PairingErrorCode> = new Set(['PAIRING_USED', 'PAIRING_EXPIRED']);

export function remoteAddress(request: IncomingMessage): string {
  return request.socket.remoteAddress ?? 'unknown';
}

export interface PairingRouteDeps {
  readonly hub: Hub;
  readonly logger: Logger;
  /** The most addresses the wrong-code counts and the block list remember. */
  readonly blockListMax: number;
}

export function createPairingRoute(
  deps: PairingRouteDeps,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const { hub, logger } = deps;
  const wrongCodes = createRateLimiter({
    perMinute: WRONG_PAIRING_CODES_PER_MINUTE,
    now: () => Date.now(),
    maxAddresses: deps.blockListMax,
  });
  /** Addresses that sent too many wrong codes, and until when they are refused. */
  const blocked = createBlockList({ max: deps.blockListMax, now: () => Date.now() });

  return async function pair(request, response) {
    const from = remoteAddress(request);
    const until = blocked.blockedUntil(from);
    if (until !== null) {
      sendError(
        response,
        429,
        'TOO_MANY_ATTEMPTS',
        'Too many wrong pairing codes. Wait a minute and open the link again.',
        { 'retry-after': String(Math.ceil((until - Date.now()) / 1000)) },
      );
      return;
    }
    const read = await readJsonOrRefuse(request, response);
    if (!read.ok) return;
    const code = (read.body as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || code === '') {
      sendError(
        response,
        400,
        'INVALID_INPUT',
        'Send the pairing code from the link: {"code": "…"}.',
      );
      return;
    }
    try {
      sendJson(response, 200, { ok: true, value: hub.pair(code) });
    } catch (error) {
      if (isBusy(error)) {
        sendError(response, 503, 'BUSY', error.message);
        return;
      }
      if (!(error instanceof PairingError)) throw error;
      // Only wrong codes count: a code has 128 bits, this stops a flood of guesses all the same.
      if (!wrongCodes.allow(from)) blocked.block(from, Date.now() + wrongCodes.retryAfterMs());
      logger.warn({ code: error.code, from }, 'pairing refused');
      sendError(response, GONE_CODES.has(error.code) ? 410 : 400, error.code, error.message);
    }
  };
}
