import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Per-process key: the digests below are never stored or compared across processes. */
const KEY = randomBytes(32).toString('hex');

/**
 * SHA-256 of the key and the text: a digest no one outside this process can compute, in one
 * call. (An HMAC does the same job here, but createHmac builds a stream object per call: on the
 * webhook's path, one per callback, it was a third of the listener's own time.) The digest
 * comes back as 'binary' (latin1) text, one character per byte, turned into its 32 bytes here:
 * on Node 20 about half the time of asking crypto.hash for a Buffer (issue 31).
 */
function digest(text: string): Buffer {
  return Buffer.from(hash('sha256', KEY + text, 'binary'), 'binary');
}

/**
 * Whether two secrets are equal, in time that depends on neither their content nor the length of
 * the expected one: both sides are reduced to fixed-size keyed digests first, so a short guess
 * does not return early and reveal the secret's length.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Whether `given` equals any of `candidates`; every candidate is compared, match or not. */
export function matchesAnySecret(given: string, candidates: readonly string[]): boolean {
  return anyDigestMatches(digest(given), candidates, digest);
}

/** How many expected secrets a matcher keeps the digest of (a token and the one it replaced). */
const MATCHER_CACHE_SIZE = 8;

/**
 * matchesAnySecret for a hot path that checks every request against the same few secrets (the
 * callback path token): the given side is hashed once per call, the expected side once per
 * secret, not once per request. Same answer, same constant time in what an attacker sends.
 */
export function createSecretMatcher(): (given: string, candidates: readonly string[]) => boolean {
  const expected = new Map<string, Buffer>();
  function expectedDigest(secret: string): Buffer {
    let known = expected.get(secret);
    if (known === undefined) {
      // Rotated-out secrets go with the rest: a refill costs one HMAC per live secret.
      if (expected.size >= MATCHER_CACHE_SIZE) expected.clear();
      known = digest(secret);
      expected.set(secret, known);
    }
    return known;
  }
  return (given, candidates) => anyDigestMatches(digest(given), candidates, expectedDigest);
}

function anyDigestMatches(
  given: Buffer,
  candidates: readonly string[],
  digestOf: (secret: string) => Buffer,
): boolean {
  let found = false;
  for (const candidate of candidates) {
    // No short-circuit: the time must not tell which (or whether an early) candidate matched.
    found = timingSafeEqual(given, digestOf(candidate)) || found;
  }
  return found;
}
