import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseCallbackBody, type ParsedCallback } from './callback-parser';
import type { AdmittedRequest, ListenerContext } from './callback-request';
import { headerText, reply, storableHeaders } from './request-parts';
import type { RawCallbackRecord } from './types';

/** What the record says instead of the path: the token is a credential and is never stored. */
export const STORED_CALLBACK_PATH = '/callbacks/:token';

const RESPONSE_OK = '{"ok":true}';

/**
 * A whole body: a self-test coming home is answered and dropped; anything else is stored, and
 * only then answered: 200, or 400/415 for a body that cannot be read as JSON or a form (still
 * stored, so nothing is lost); 503 when the inbox cannot store, so the provider retries. The
 * sales engine hears about each stored callback after the answer (after-answer.ts).
 */
export async function storeAndAnswer(
  ctx: ListenerContext,
  request: IncomingMessage,
  response: ServerResponse,
  admitted: AdmittedRequest,
  raw: Buffer,
): Promise<void> {
  const { logger } = ctx;
  const { remoteAddress, tokens } = admitted;
  const contentType = headerText(request.headers['content-type']);
  const body = raw.toString('utf8');
  if (ctx.selfTest?.(body) === true) {
    logger.info({ remoteAddress }, 'webhook: callback self-test came back');
    answerOk(response);
    return;
  }
  const parsed = parseCallbackBody(body, contentType);
  const record: RawCallbackRecord = {
    receivedAt: admitted.receivedAt,
    remoteAddress,
    method: request.method ?? 'POST',
    path: STORED_CALLBACK_PATH + admitted.storedQuery,
    contentType,
    headers: storableHeaders(request, tokens),
    body,
    parseStatus: parsed.parseStatus,
    hint: parsed.hint,
  };
  let id: number;
  try {
    id = (await ctx.inbox.store(record)).id;
  } catch (error) {
    logger.error({ err: error }, 'webhook: could not store callback, answering 503');
    reply(response, 503, { 'retry-after': '5' }, false);
    return;
  }
  answerStored(ctx, response, parsed);
  ctx.afterAnswer.add({ id, hint: parsed.hint, parseStatus: parsed.parseStatus });
}

/** The same for every 200: built once, not per callback (Node only reads it). */
const OK_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(Buffer.byteLength(RESPONSE_OK)),
  'cache-control': 'no-store',
});

function answerOk(response: ServerResponse): void {
  response.writeHead(200, OK_HEADERS);
  response.end(RESPONSE_OK);
}

function answerStored(
  ctx: ListenerContext,
  response: ServerResponse,
  parsed: ParsedCallback,
): void {
  if (parsed.parseStatus !== 'malformed') {
    answerOk(response);
    return;
  }
  ctx.logger.warn({ reason: parsed.reason }, 'webhook: unreadable callback stored');
  reply(response, parsed.reason === 'unsupported-content-type' ? 415 : 400, {}, false);
}
