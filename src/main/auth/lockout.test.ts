import { describe, expect, it } from 'vitest';
import {
  activeLock,
  afterFailure,
  lockoutFor,
  lockoutFromFile,
  lockoutToFile,
  LONGEST_LOCKOUT_MS,
  NO_FAILURES,
  triesLeft,
  waitWords,
  type LockoutState,
} from './lockout';

const MIN = 60_000;

describe('the lock-out after wrong PINs', () => {
  it('allows four wrong PINs, locks for 1 minute at the fifth, then 5, 15 and 60 minutes', () => {
    expect([1, 2, 3, 4].map(lockoutFor)).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9, 20].map(lockoutFor)).toEqual([
      1 * MIN,
      5 * MIN,
      15 * MIN,
      60 * MIN,
      60 * MIN,
      60 * MIN,
    ]);
  });

  it('counts failures and sets the lock from the time of the failure', () => {
    let state: LockoutState = NO_FAILURES;
    const now = 1_000_000;
    for (let i = 0; i < 4; i++) state = afterFailure(state, now);
    expect(state).toEqual({ failures: 4, lockedUntil: null });
    expect(triesLeft(state)).toBe(1);
    expect(activeLock(state, now)).toBeNull();
    state = afterFailure(state, now);
    expect(state).toEqual({ failures: 5, lockedUntil: now + MIN });
    expect(activeLock(state, now + MIN - 1)).toBe(now + MIN);
    expect(activeLock(state, now + MIN)).toBeNull();
    state = afterFailure(state, now + MIN);
    expect(state.lockedUntil).toBe(now + MIN + 5 * MIN);
    expect(triesLeft(state)).toBe(1);
  });

  it('says how long to wait in words', () => {
    expect(waitWords(1)).toBe('1 minute');
    expect(waitWords(61_000)).toBe('2 minutes');
    expect(waitWords(15 * MIN)).toBe('15 minutes');
    expect(waitWords(60 * MIN)).toBe('1 hour');
  });
});

describe('a lock-out between the monotonic clock and pins.json', () => {
  const at = { wall: Date.UTC(2026, 10, 22, 9), monotonic: 7_000 };

  it('keeps the time left both ways, and no end once it has passed', () => {
    const held: LockoutState = { failures: 6, lockedUntil: at.monotonic + 5 * MIN };
    const saved = lockoutToFile(held, at);
    expect(saved).toEqual({ failures: 6, lockedUntil: at.wall + 5 * MIN });
    expect(lockoutFromFile(saved, { wall: at.wall + MIN, monotonic: 0 })).toEqual({
      failures: 6,
      lockedUntil: 4 * MIN,
    });
    expect(lockoutFromFile(saved, { wall: at.wall + 5 * MIN, monotonic: 0 })).toEqual({
      failures: 6,
      lockedUntil: null,
    });
    expect(lockoutToFile({ failures: 2, lockedUntil: null }, at)).toEqual({
      failures: 2,
      lockedUntil: null,
    });
  });

  it('never reads back a longer wait than the longest step (a clock set back)', () => {
    const saved: LockoutState = { failures: 9, lockedUntil: at.wall + 365 * 24 * 60 * MIN };
    expect(lockoutFromFile(saved, at).lockedUntil).toBe(at.monotonic + LONGEST_LOCKOUT_MS);
  });
});
