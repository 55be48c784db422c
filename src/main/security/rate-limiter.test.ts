import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter';

describe('createRateLimiter', () => {
  it('allows each address its limit per minute, then refuses until the next window', () => {
    let now = 60_000 * 10 + 15_000;
    const limiter = createRateLimiter({ perMinute: 2, now: () => now });
    expect([limiter.allow('a'), limiter.allow('a'), limiter.allow('a')]).toEqual([
      true,
      true,
      false,
    ]);
    expect(limiter.allow('b')).toBe(true);
    expect(limiter.retryAfterMs()).toBe(45_000);
    now += 45_000;
    expect(limiter.allow('a')).toBe(true);
  });

  it('makes a flood of new addresses share one counter, so its memory stays bounded', () => {
    const limiter = createRateLimiter({ perMinute: 1, now: () => 0, maxAddresses: 2 });
    expect([limiter.allow('a'), limiter.allow('b')]).toEqual([true, true]);
    expect([limiter.allow('c'), limiter.allow('d')]).toEqual([true, false]);
    expect(limiter.allow('a')).toBe(false);
  });
});
