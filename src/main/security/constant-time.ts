import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Per-process key: the digests below are never stored or compared across processes. */
const KEY = randomBytes(32);

function digest(text: string): Buffer {
  return createHmac('sha256', KEY).update(text, 'utf8').digest();
}

/**
 * Whether two secrets are equal, in time that depends on neither their content nor the length of
 * the expected one: both sides are reduced to fixed-size HMACs first, so a short guess does not
 * return early and reveal the secret's length.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Whether `given` equals any of `candidates`; every candidate is compared, match or not. */
export function matchesAnySecret(given: string, candidates: readonly string[]): boolean {
  let found = false;
  for (const candidate of candidates) {
    // No short-circuit: the time must not tell which (or whether an early) candidate matched.
    found = sameSecret(given, candidate) || found;
  }
  return found;
}
