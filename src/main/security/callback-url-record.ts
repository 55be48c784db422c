import { createHash } from 'node:crypto';

/** Stands where the callback path's secret token was: its fingerprint, never the token. */
const MARKER = /\[token sha256:[0-9a-f]{16}\]$/;

function fingerprint(secret: string): string {
  return `[token sha256:${createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 16)}]`;
}

/**
 * What the money tables keep of the callback URL an account was made with: its origin and path
 * with the last path segment (the callback route's secret token, webhook/callback-request.ts)
 * and anything after it replaced by a 64-bit fingerprint. The same address always gives the
 * same record and a rotated token a new one, which is all a reader of the row asks (was this
 * sale's account made with the address callbacks come to now?); the 256-bit token cannot be
 * read back from it, so neither the database nor its backups hand out the callback route.
 */
export function callbackUrlRecord(url: string): string {
  if (MARKER.test(url)) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fingerprint(url);
  }
  const cut = parsed.pathname.lastIndexOf('/') + 1;
  const secret = `${parsed.pathname.slice(cut)}${parsed.search}${parsed.hash}`;
  return `${parsed.origin}${parsed.pathname.slice(0, cut)}${fingerprint(secret)}`;
}
