import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CHECK_POLICY as P,
  nextCheckDelay,
  watchEndsAt,
  type NextCheckInput,
} from './check-schedule';

const T0 = 1_000_000;
const EXPIRES = T0 + 15 * 60_000;

function input(overrides: Partial<NextCheckInput> = {}): NextCheckInput {
  return {
    state: 'awaiting_payment',
    now: T0,
    expiresAt: EXPIRES,
    watchedSince: T0,
    checks: 0,
    lastCheckAt: null,
    backoffStep: null,
    callbacksDegraded: false,
    ...overrides,
  };
}

/** Runs the schedule alone (no backoff) over a sale's life; returns the check times. */
function steadyChecks(from: Partial<NextCheckInput>, until: number): number[] {
  const times: number[] = [];
  let state = input(from);
  for (;;) {
    const delay = nextCheckDelay(state, P);
    if (delay === null || state.now + delay > until) return times;
    const at = state.now + delay;
    times.push(at);
    state = { ...state, now: at, lastCheckAt: at, checks: state.checks + 1 };
  }
}

describe('nextCheckDelay: the safety net, the backoff and the budget', () => {
  it('checks every open sale on the safety net whatever the callback route claims', () => {
    for (const state of ['awaiting_payment', 'confirming', 'wrong_amount'] as const) {
      expect(nextCheckDelay(input({ state }), P)).toBe(15_000);
      expect(nextCheckDelay(input({ state, lastCheckAt: T0 }), P)).toBe(15_000);
    }
  });

  it('checks about every 10 s while callbacks are known not to reach the sale', () => {
    // The budget keeps one request for the deadline's final check: a little over 10 s.
    const delay = nextCheckDelay(input({ callbacksDegraded: true }), P) ?? 0;
    expect(delay).toBeGreaterThanOrEqual(10_000);
    expect(delay).toBeLessThan(10_500);
    expect(nextCheckDelay(input({ callbacksDegraded: true, expiresAt: null }), P)).toBe(10_000);
  });

  it("runs the interface's 2 s, 4 s, 8 s backoff from the last check, then the safety net", () => {
    const at = (backoffStep: number | null) =>
      nextCheckDelay(input({ now: T0 + 100, lastCheckAt: T0 + 100, checks: 1, backoffStep }), P);
    expect([at(0), at(1), at(2)]).toEqual([2_000, 4_000, 8_000]);
    // The 30 s step is capped by the safety net: the smaller one wins.
    expect(at(3)).toBe(15_000);
    expect(at(null)).toBe(15_000);
  });

  it('never returns a negative delay for a check that is overdue', () => {
    expect(nextCheckDelay(input({ now: T0 + 60_000 }), P)).toBe(0);
    expect(nextCheckDelay(input({ now: T0 + 60_000, backoffStep: 0 }), P)).toBe(0);
  });

  it('keeps the average at one status request per 10 s or less over a sale with no payment', () => {
    for (const callbacksDegraded of [false, true]) {
      const times = steadyChecks({ callbacksDegraded }, EXPIRES + P.expiryCheckDelayMs);
      const life = EXPIRES + P.expiryCheckDelayMs - T0;
      // The deadline's final check is one more request.
      expect(life / (times.length + 1)).toBeGreaterThanOrEqual(P.budgetMs);
    }
  });

  it('pays a backoff back with slower steady checks, so the life average stays in budget', () => {
    // Six presses and their backoffs in the first minute, callbacks not reaching.
    let checks = 0;
    let last = T0;
    for (let press = 0; press < 6; press++) {
      for (const step of [0, 2_000, 4_000, 8_000]) {
        last += step;
        checks += 1;
      }
      last += 1_000;
    }
    const state = { callbacksDegraded: true, now: last, lastCheckAt: last, checks };
    const times = steadyChecks(state, EXPIRES + P.expiryCheckDelayMs);
    const life = EXPIRES + P.expiryCheckDelayMs - T0;
    expect(life / (checks + times.length + 1)).toBeGreaterThanOrEqual(P.budgetMs);
    // ...while still checking often enough to find a payment within the 35 s bound.
    const gaps = times.map((t, i) => t - (times[i - 1] ?? last));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000);
  });

  it('after the deadline, keeps an open sale checked through the grace period, then stops', () => {
    const past = EXPIRES + P.expiryCheckDelayMs;
    expect(nextCheckDelay(input({ state: 'confirming', now: past, lastCheckAt: past }), P)).toBe(
      15_000,
    );
    const graceEnd = EXPIRES + P.lateGraceMs;
    expect(nextCheckDelay(input({ state: 'confirming', now: graceEnd }), P)).toBeNull();
  });

  it('watches a cancelled or expired sale slowly for a late payment, until the grace ends', () => {
    for (const state of ['cancelled', 'expired'] as const) {
      expect(nextCheckDelay(input({ state, lastCheckAt: T0 }), P)).toBe(60_000);
      const nearEnd = EXPIRES + P.lateGraceMs - 5_000;
      expect(nextCheckDelay(input({ state, now: nearEnd, lastCheckAt: nearEnd }), P)).toBe(5_000);
      expect(nextCheckDelay(input({ state, now: EXPIRES + P.lateGraceMs }), P)).toBeNull();
    }
  });

  it('never checks a sale that is paid, abandoned or still being created', () => {
    for (const state of ['paid', 'paid_late', 'failed_to_create', 'creating'] as const) {
      expect(nextCheckDelay(input({ state }), P)).toBeNull();
      expect(watchEndsAt(state, EXPIRES, P)).toBeNull();
    }
  });

  it('keeps watching an open sale without a deadline on the safety net', () => {
    expect(nextCheckDelay(input({ expiresAt: null }), P)).toBe(15_000);
    expect(watchEndsAt('awaiting_payment', null, P)).toBe(Number.POSITIVE_INFINITY);
    expect(watchEndsAt('cancelled', null, P)).toBeNull();
  });
});
