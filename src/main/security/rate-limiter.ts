/**
 * Per-address fixed-window counter (one-minute windows). Fixed windows allow a burst of up to
 * twice the limit across a window edge, which is fine for a guard whose job is to stop floods
 * and token guessing, and it keeps the state to one counter per address seen this minute.
 */
export interface RateLimiter {
  /** Counts one request; false when the address is over its limit for the current window. */
  allow(address: string): boolean;
  /** Milliseconds until the current window ends (for Retry-After). */
  retryAfterMs(): number;
}

export interface RateLimiterOptions {
  readonly perMinute: number;
  readonly now: () => number;
  /** Addresses tracked per window; beyond it, new addresses share one overflow counter. */
  readonly maxAddresses?: number;
}

const WINDOW_MS = 60_000;
const OVERFLOW = '\u0000overflow';

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const maxAddresses = options.maxAddresses ?? 10_000;
  let window = -1;
  let counts = new Map<string, number>();

  function roll(): void {
    const current = Math.floor(options.now() / WINDOW_MS);
    if (current !== window) {
      window = current;
      counts = new Map();
    }
  }

  return {
    allow(address) {
      roll();
      // Bounded memory under a flood of distinct addresses: they share one (soon full) counter.
      const key = counts.has(address) || counts.size < maxAddresses ? address : OVERFLOW;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      return count <= options.perMinute;
    },
    retryAfterMs() {
      roll();
      return (window + 1) * WINDOW_MS - options.now();
    },
  };
}
