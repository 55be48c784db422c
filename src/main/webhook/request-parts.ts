import type { IncomingMessage, ServerResponse } from 'node:http';

/* The small pieces of an HTTP exchange the listener and its answers share. */

/** Header names dropped before storage: credentials of any kind, whoever sent them. */
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|secretkey)$|secret|token|passw|api[-_]?key|credential/i;

/** An answer without a body. `close` when the request body was not read to its end. */
export function reply(
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

export function headerText(value: string | readonly string[] | undefined): string | null {
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.join(', ');
}

export function scrubTokens(text: string, tokens: readonly string[]): string {
  let out = text;
  for (const token of tokens) if (out.includes(token)) out = out.split(token).join(':token');
  return out;
}

/**
 * Header names not stored because the record already says what they say: the content type has
 * its own column, the length is the body's, and the rest are hop-by-hop (they describe the
 * connection to the tunnel, not the callback).
 */
const REDUNDANT_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

export function storableHeaders(
  request: IncomingMessage,
  tokens: readonly string[],
): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  const { headers } = request;
  // Object.keys rather than Object.entries: no [name, value] array per header, per callback.
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined || REDUNDANT_HEADERS.has(name) || SECRET_HEADER.test(name)) continue;
    // A proxy may echo the original URL (Referer, X-Original-URL…): the token must not survive.
    out[name] = scrubTokens(headerText(value) ?? '', tokens);
  }
  return out;
}
