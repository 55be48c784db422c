/**
 * The campaign's "paid in time" invariant can fail: two bugs planted into the engine's pure
 * decision modules (vi.mock, in-process tills) each make a hand-written run fail with the
 * violation that names them, and the same run passes without the plant.
 * - Polling switched off: nextCheckDelay gives up on every open sale, so with every callback lost
 *   the payment is found only by the deadline's final check, minutes after it settled.
 * - Expiring on a failed final check: decideAtDeadline expires a sale whose final check timed out,
 *   although its money had settled before the deadline.
 */
import { describe, expect, it, vi } from 'vitest';
import type * as CheckSchedule from '#main/engine/check-schedule';
import type * as Deadline from '#main/engine/deadline';
import type * as ExtraPayments from '#main/engine/extra-payments';
import { DEFAULT_PERSONALITY } from '#main/sandbox/personality';
import { isOpenSaleState } from '#shared/sales';
import { runOnce } from './campaign';
import { runFailed, type RunReport } from './run-report';
import { SECOND, type Script } from './script';

const plant = vi.hoisted(() => ({
  pollingOff: false,
  expireOnFailedFinalCheck: false,
  extraPaymentsIgnored: false,
}));

vi.mock('#main/engine/extra-payments', async (importOriginal) => {
  const original = await importOriginal<typeof ExtraPayments>();
  return {
    ...original,
    // Every stored transfer reaches the paid-twice rule through flagUnexpectedPayment (a call
    // inside the module, which vi.mock cannot see): the plant takes the entry point itself.
    flagUnexpectedPayment: ((ctx, row) => {
      if (!plant.extraPaymentsIgnored) original.flagUnexpectedPayment(ctx, row);
    }) satisfies typeof original.flagUnexpectedPayment,
    flagExtraPayment: ((ctx, row) => {
      if (!plant.extraPaymentsIgnored) original.flagExtraPayment(ctx, row);
    }) satisfies typeof original.flagExtraPayment,
    flagExtraPaymentsOfSale: ((ctx, sale) => {
      if (!plant.extraPaymentsIgnored) original.flagExtraPaymentsOfSale(ctx, sale);
    }) satisfies typeof original.flagExtraPaymentsOfSale,
  };
});

vi.mock('#main/engine/check-schedule', async (importOriginal) => {
  const original = await importOriginal<typeof CheckSchedule>();
  const nextCheckDelay: typeof original.nextCheckDelay = (input, policy) =>
    plant.pollingOff && isOpenSaleState(input.state)
      ? null
      : original.nextCheckDelay(input, policy);
  return { ...original, nextCheckDelay };
});

vi.mock('#main/engine/deadline', async (importOriginal) => {
  const original = await importOriginal<typeof Deadline>();
  const decideAtDeadline: typeof original.decideAtDeadline = (input) => {
    const decision = original.decideAtDeadline(input);
    return plant.expireOnFailedFinalCheck && decision.kind === 'keep-checking'
      ? { kind: 'expire' }
      : decision;
  };
  return { ...original, decideAtDeadline };
});

const SALE = { amountKobo: 150_000, behaviour: 'exact', wrongKobo: 150_100 } as const;

/** Every callback lost; one sale on a 2-minute account, paid 10 s after it was created. */
const CALLBACKS_NEVER: Script = {
  personality: { ...DEFAULT_PERSONALITY, callbacks: 'never' },
  expiryMinutes: 2,
  fixedListenerPort: false,
  sales: [SALE],
  steps: [
    { at: 0, kind: 'create', sale: 0 },
    { at: 10 * SECOND, kind: 'pay', sale: 0, wrong: false, pendingMs: 0 },
  ],
  faultSeed: 1,
};

/**
 * Every callback lost; the money settles 1 s before the 2-minute deadline, inside a window in
 * which every status answer is held past the client's timeout: the deadline's final check (at
 * +5 s) times out. The window closes 7 s after the deadline.
 */
const FINAL_CHECK_TIMES_OUT: Script = {
  personality: { ...DEFAULT_PERSONALITY, callbacks: 'never' },
  expiryMinutes: 2,
  fixedListenerPort: false,
  sales: [SALE],
  steps: [
    { at: 0, kind: 'create', sale: 0 },
    { at: 117 * SECOND, kind: 'faults', patch: { timeout_rate: 1 } },
    { at: 119 * SECOND, kind: 'pay', sale: 0, wrong: false, pendingMs: 0 },
    { at: 127 * SECOND, kind: 'faults', patch: { timeout_rate: 0 } },
  ],
  faultSeed: 2,
};

/** A provider that takes a second exact transfer into a paid account: the customer pays twice. */
const PAID_TWICE: Script = {
  personality: { ...DEFAULT_PERSONALITY, repeat_payments: 'accept' },
  expiryMinutes: 2,
  fixedListenerPort: false,
  sales: [{ ...SALE, behaviour: 'pay-twice' }],
  steps: [
    { at: 0, kind: 'create', sale: 0 },
    { at: 10 * SECOND, kind: 'pay', sale: 0, wrong: false, pendingMs: 0 },
    { at: 30 * SECOND, kind: 'pay', sale: 0, wrong: false, pendingMs: 0 },
  ],
  faultSeed: 3,
};

async function play(script: Script): Promise<RunReport> {
  return runOnce({ index: 0, seed: 1, sigkill: false, script });
}

const kinds = (report: RunReport) => report.violations.map((v) => v.kind);

describe('planted faults fail the "settled while open ends paid in time" invariant', () => {
  it('polling switched off: the lost-callback payment is paid too late', async () => {
    plant.pollingOff = true;
    try {
      const report = await play(CALLBACKS_NEVER);
      expect(kinds(report)).toContain('open_payment_slow');
      expect(report.firstCheck.openPayments).toBe(1);
    } finally {
      plant.pollingOff = false;
    }
  }, 60_000);

  it('...and the same run passes with polling on', async () => {
    const report = await play(CALLBACKS_NEVER);
    expect(report.violations).toEqual([]);
    expect(runFailed(report)).toBe(false);
    expect(report.firstCheck.timeToPaid).toEqual([expect.objectContaining({ pressed: false })]);
  }, 60_000);

  it('expiring on a failed final check: the sale is expired although paid in time', async () => {
    plant.expireOnFailedFinalCheck = true;
    try {
      const report = await play(FINAL_CHECK_TIMES_OUT);
      expect(kinds(report)).toContain('open_payment_expired');
      expect(report.served['timeout']).toBeGreaterThan(0);
    } finally {
      plant.expireOnFailedFinalCheck = false;
    }
  }, 60_000);

  it('...and the same run passes when a failed final check keeps the sale open', async () => {
    const report = await play(FINAL_CHECK_TIMES_OUT);
    expect(report.violations).toEqual([]);
    expect(runFailed(report)).toBe(false);
    expect(report.served['timeout']).toBeGreaterThan(0);
    expect(report.firstCheck.timeToPaid).toHaveLength(1);
  }, 60_000);
});

describe('a planted fault fails "a payment beyond the first is flagged, never silently stored"', () => {
  it('extra payments ignored: the second payment is stored with no paid_twice alert', async () => {
    plant.extraPaymentsIgnored = true;
    try {
      const report = await play(PAID_TWICE);
      expect(kinds(report)).toContain('extra_payment_not_flagged');
      expect(report.served['repeat_payment_accepted']).toBe(1);
    } finally {
      plant.extraPaymentsIgnored = false;
    }
  }, 60_000);

  it('...and the same run passes when the engine flags it', async () => {
    const report = await play(PAID_TWICE);
    expect(report.violations).toEqual([]);
    expect(runFailed(report)).toBe(false);
    expect(report.served['repeat_payment_accepted']).toBe(1);
  }, 60_000);
});
