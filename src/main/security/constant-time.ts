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

/** How many expected secrets a matcher keeps the bytes of (a token and the one it replaced). */
const MATCHER_CACHE_SIZE = 8;

/**
 * Whether `given` equals any of `candidates`, every candidate compared, match or not: for a hot
 * path that checks every request against the same few secrets of a fixed, public length (the
 * callback path token, 43 characters in every till). No digest: the given text's bytes are
 * compared with each secret's by timingSafeEqual; when the lengths differ the secret is compared
 * with itself instead, so each candidate costs one full comparison either way. The time depends
 * on the given text's length (its sender knows it) and the secrets' lengths (public), never on
 * their content. A keyed digest per request cost the webhook about a microsecond a callback, on
 * a path where each microsecond was about 4% of the loaded p50 (issue 31).
 */
export function createSecretMatcher(): (given: string, candidates: readonly string[]) => boolean {
  const expected = new Map<string, Buffer>();
  function expectedBytes(secret: string): Buffer {
    let known = expected.get(secret);
    if (known === undefined) {
      // Rotated-out secrets go with the rest: a refill costs one encoding per live secret.
      if (expected.size >= MATCHER_CACHE_SIZE) expected.clear();
      known = Buffer.from(secret, 'utf8');
      expected.set(secret, known);
    }
    return known;
  }
  return (given, candidates) => {
    const givenBytes = Buffer.from(given, 'utf8');
    let found = false;
    for (const candidate of candidates) {
      const secret = expectedBytes(candidate);
      const sameLength = givenBytes.length === secret.length;
      // No short-circuit: the time must not tell which (or whether an early) candidate matched.
      found = (timingSafeEqual(sameLength ? givenBytes : secret, secret) && sameLength) || found;
    }
    return found;
  };
}
