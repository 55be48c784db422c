/** JSON over the shells' HTTP listeners: bounded request bodies, uncached answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '#shared/errors';

const MAX_BODY_BYTES = 256 * 1024;

export class RequestBodyError extends AppError<'INVALID_INPUT'> {
  constructor(message: string) {
    super('INVALID_INPUT', message);
    this.name = 'RequestBodyError';
  }
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** A refusal or failure in the bridge's answer shape: `{ ok: false, error: { code, message } }`. */
export function sendError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendJson(response, status, { ok: false, error: { code, message } }, headers);
}

/** The request's JSON body ({} when empty); throws RequestBodyError when too large or not JSON. */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > MAX_BODY_BYTES) throw new RequestBodyError('The request body is too large.');
    chunks.push(bytes);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? (JSON.parse(text) as unknown) : {};
  } catch {
    throw new RequestBodyError('The request body is not valid JSON.');
  }
}

/** What `readJsonOrRefuse` found: the body, or nothing when it already answered 400. */
export type BodyRead = { readonly ok: true; readonly body: unknown } | { readonly ok: false };

/** The request's JSON body, or a 400 INVALID_INPUT answer saying why it could not be read. */
export async function readJsonOrRefuse(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<BodyRead> {
  try {
    return { ok: true, body: await readJson(request) };
  } catch (error) {
    sendError(
      response,
      400,
      'INVALID_INPUT',
      error instanceof Error ? error.message : 'Bad request body.',
    );
    return { ok: false };
  }
}
