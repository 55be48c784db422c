import type { IncomingMessage, ServerResponse } from 'node:http';
import { SandboxError } from './errors';

export const MAX_BODY_BYTES = 1024 * 1024;

/** What a route handler answers: a status and a JSON body, or raw text (malformed bodies). */
export type Reply =
  | { readonly status: number; readonly json: unknown }
  | { readonly status: number; readonly raw: string; readonly contentType: string };

export function json(status: number, body: unknown): Reply {
  return { status, json: body };
}

/** Reads a JSON body; an empty body is an error unless `emptyAs` says what it stands for. */
export async function readJsonBody(req: IncomingMessage, emptyAs?: unknown): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      throw new SandboxError('PAYLOAD_TOO_LARGE', `body: larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '' && emptyAs !== undefined) return emptyAs;
  if (text.trim() === '') throw new SandboxError('INVALID_JSON', 'body: a JSON body is required');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SandboxError('INVALID_JSON', 'body: not valid JSON');
  }
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const text = 'json' in reply ? JSON.stringify(reply.json) : reply.raw;
  res.writeHead(reply.status, {
    'content-type': 'json' in reply ? 'application/json; charset=utf-8' : reply.contentType,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/** A header that may arrive repeated; the first value is the one that counts. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
