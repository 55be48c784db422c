import { describe, expect, it } from 'vitest';
import { decideAtDeadline, paidInTime, type CheckEvidence } from './deadline';

const GRACE_END = 10_000;

describe('decideAtDeadline: a deadline never loses a payment', () => {
  it.each<[CheckEvidence, string]>([
    ['paid', 'settled'],
    ['closed', 'settled'],
    ['failed', 'expire'],
    ['nothing', 'expire'],
    ['pending', 'keep-checking'],
    ['unclear', 'keep-checking'],
  ])('%s before the grace ends -> %s', (evidence, kind) => {
    expect(decideAtDeadline({ evidence, now: GRACE_END - 1, graceEndsAt: GRACE_END })).toEqual({
      kind,
    });
  });

  it.each<[CheckEvidence, string]>([
    ['pending', 'give-up'],
    ['unclear', 'give-up'],
    ['nothing', 'expire'],
    ['paid', 'settled'],
  ])('%s once the grace has ended -> %s', (evidence, kind) => {
    expect(decideAtDeadline({ evidence, now: GRACE_END, graceEndsAt: GRACE_END })).toEqual({
      kind,
    });
  });
});

describe('paidInTime: paid or paid late', () => {
  const base = { expiresAt: 100_000, expiryCheckDelayMs: 5_000 };

  it('an open sale is paid whatever the date', () => {
    for (const state of ['awaiting_payment', 'confirming', 'wrong_amount', 'creating'] as const) {
      expect(paidInTime({ ...base, state, paymentAt: 999_999 })).toBe(true);
    }
  });

  it('an expired sale is paid when the provider dates the payment by the deadline (+ skew)', () => {
    expect(paidInTime({ ...base, state: 'expired', paymentAt: 105_000 })).toBe(true);
    expect(paidInTime({ ...base, state: 'expired', paymentAt: 105_001 })).toBe(false);
    expect(paidInTime({ ...base, state: 'expired', paymentAt: null })).toBe(false);
    expect(paidInTime({ ...base, state: 'expired', expiresAt: null, paymentAt: 1 })).toBe(false);
  });

  it("a cashier's cancel stands: any payment after it is late", () => {
    expect(paidInTime({ ...base, state: 'cancelled', paymentAt: 1 })).toBe(false);
    expect(paidInTime({ ...base, state: 'failed_to_create', paymentAt: 1 })).toBe(false);
  });
});
