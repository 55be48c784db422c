/**
 * The short form of the fault campaign, part of `npm test`: 25 seeded randomised runs (3 of them
 * with a real SIGKILL of a till child process), each under a provider personality, checked with
 * the faults still on and again after recovery against the sandbox's own ledger.
 * The long form is `npm run test:faults` (test/faults/run.ts, 1,000 runs and more).
 */
import { describe, expect, it } from 'vitest';
import { runCampaign } from './campaign';
import {
  checkInvariants,
  PAID_BOUND_MS,
  percentile,
  type CheckOptions,
  type LedgerTx,
  type StoreSnapshot,
} from './invariants';
import { formatRun, formatSummary } from './summary';
import { troubleSlackMs } from './trouble';

/** A fixed seed keeps `npm test` repeatable; the long form takes any seed. */
const SEED = 20_261_122;

describe('fault campaign (short form)', () => {
  it('25 randomised runs keep every naira and pay every open payment in time', async () => {
    // Every 8th run (3 of 25) is a child-process till, SIGKILLed at a random point and restarted
    // on the same data directory; the others restart in process (close and reopen).
    const summary = await runCampaign({
      runs: 25,
      seed: SEED,
      sigkillEvery: 8,
      concurrency: 4,
      // Each run's seed and personality, as it ends.
      onRun: (report) => console.log(formatRun(report, SEED)),
    });
    console.log(formatSummary(summary));
    expect(summary.errors).toEqual([]);
    expect(summary.failures.flatMap((r) => [...r.violations, ...r.unplanned])).toEqual([]);
    expect(summary.sigkillRuns).toBe(3);
    expect(summary.planned.sigkills).toBeGreaterThanOrEqual(3);
    expect(summary.losses).toBe(0);
    expect(summary.doubleCounts).toBe(0);
    expect(summary.lateFlagged).toBe(summary.paidLate);
    expect(summary.inflows).toBeGreaterThan(0);
    // The proof met what it claims to: open payments timed, faults really served.
    expect(summary.openPayments).toBeGreaterThan(0);
    expect(summary.timeToPaid.noButton.count).toBeGreaterThan(0);
    expect(Object.values(summary.served).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // Outages met: outage sales taken in them, some confirmed, some payments given to a person.
    expect(summary.planned.provider_unreachable).toBeGreaterThan(0);
    expect(summary.outage.confirmed).toBeGreaterThan(0);
    expect(summary.outage.toAPerson).toBeGreaterThan(0);
    // Runs take 10-30 s each on a quiet machine, four at a time; with the machine shared (load
    // 10 on 2 cores) 24 of 25 had ended at 120 s, all ok: the bound is for a hang, not a pace.
  }, 360_000);
});

describe('the invariant check itself (planted faults are caught)', () => {
  const paidTx: LedgerTx = {
    session_id: '100000000000000000000000000001',
    status: 'success',
    amount_kobo: 150_000,
    external_reference: 'REF-1',
    account_number: '0123456789',
    created_at_ms: 1_000,
    settled_at_ms: 1_000,
    settles_at_ms: null,
  };
  const good: StoreSnapshot = {
    sales: [
      {
        id: 1,
        state: 'paid',
        amountKobo: 150_000,
        amountDueKobo: null,
        createdAt: 0,
        reference: 'REF-1',
        accountId: 1,
        expiresAt: 900_000,
        paidSessionId: paidTx.session_id,
        paidAt: 11_000,
      },
    ],
    inflows: [{ sessionId: paidTx.session_id, amountKobo: 150_000, status: 'success', saleId: 1 }],
    events: [
      { saleId: 1, at: 0, toState: 'creating', cause: 'test' },
      { saleId: 1, at: 0, toState: 'awaiting_payment', cause: 'test' },
      { saleId: 1, at: 11_000, toState: 'paid', cause: 'test' },
    ],
    alerts: [],
    accounts: [{ id: 1, reference: 'REF-1', purpose: 'sale', accountNumber: '0123456789' }],
    duplicateSessions: [],
  };
  const recovered: CheckOptions = { phase: 'recovered', expiryCheckDelayMs: 5_000 };
  const faultsOn = (
    now: number,
    more: { slack?: number; presses?: readonly number[] } = {},
  ): CheckOptions => ({
    phase: 'faults-on',
    expiryCheckDelayMs: 5_000,
    timing: {
      now,
      slackMs: () => more.slack ?? 0,
      presses: new Map([[1, more.presses ?? []]]),
    },
  });
  const kinds = (ledger: readonly LedgerTx[], store: StoreSnapshot, options = recovered) =>
    checkInvariants(ledger, store, options).violations.map((v) => v.kind);

  it('passes a consistent pair, in both phases', () => {
    expect(kinds([paidTx], good)).toEqual([]);
    expect(kinds([paidTx], good, faultsOn(1_000_000))).toEqual([]);
  });

  it('catches a provider success missing from the store (a loss), after recovery only', () => {
    const missing = {
      ...good,
      inflows: [],
      sales: [{ ...good.sales[0]!, state: 'expired', paidSessionId: null, paidAt: null }],
    };
    expect(kinds([paidTx], missing)).toContain('loss');
    expect(kinds([paidTx], missing, faultsOn(1_000_000))).not.toContain('loss');
  });

  it('catches a stored amount that differs from the provider', () => {
    const inflows = [{ ...good.inflows[0]!, amountKobo: 150_001 }];
    expect(kinds([paidTx], { ...good, inflows })).toContain('wrong_amount_stored');
    expect(kinds([paidTx], { ...good, inflows }, faultsOn(1_000_000))).toContain(
      'wrong_amount_stored',
    );
  });

  it('catches a sale paid by a payment the provider does not have', () => {
    expect(kinds([], good)).toContain('paid_without_inflow');
  });

  it('catches a success into a sale that is not marked paid', () => {
    const sales = [{ ...good.sales[0]!, state: 'expired', paidSessionId: null, paidAt: null }];
    expect(kinds([paidTx], { ...good, sales })).toContain('unattributed_payment');
  });

  it('catches a payment beyond the first that is stored without a paid_twice alert', () => {
    const second = {
      ...paidTx,
      session_id: '100004261122000000000000000002',
      created_at_ms: 20_000,
    };
    const inflows = [
      ...good.inflows,
      { sessionId: second.session_id, amountKobo: 150_000, status: 'success', saleId: 1 },
    ];
    const silent = { ...good, inflows };
    expect(kinds([paidTx, second], silent)).toEqual(['extra_payment_not_flagged']);
    const flagged = {
      ...silent,
      alerts: [{ kind: 'paid_twice', saleId: 1, sessionId: second.session_id }],
    };
    expect(kinds([paidTx, second], flagged)).toEqual([]);
  });

  describe('of two exact transfers, the one the provider dates first pays the sale', () => {
    const later = { ...paidTx, session_id: '100004261122000000000000000002', created_at_ms: 9_000 };
    const byLater: StoreSnapshot = {
      ...good,
      sales: [{ ...good.sales[0]!, paidSessionId: later.session_id }],
      inflows: [
        ...good.inflows,
        { sessionId: later.session_id, amountKobo: 150_000, status: 'success', saleId: 1 },
      ],
      alerts: [{ kind: 'paid_twice', saleId: 1, sessionId: paidTx.session_id }],
    };

    it('catches the later one taken for the payment, after recovery', () => {
      expect(kinds([paidTx, later], byLater)).toEqual(['payment_misattributed']);
      // Corrected, but the alert telling the owner to refund the earlier one left open.
      const refundWrong = { ...byLater, sales: good.sales };
      expect(kinds([paidTx, later], refundWrong)).toEqual([
        'extra_payment_not_flagged',
        'payment_misattributed',
      ]);
      const corrected = {
        ...byLater,
        sales: good.sales,
        alerts: [
          { kind: 'paid_twice', saleId: 1, sessionId: paidTx.session_id, acknowledged: true },
          { kind: 'paid_twice', saleId: 1, sessionId: later.session_id },
        ],
      };
      expect(kinds([paidTx, later], corrected)).toEqual([]);
      // Dated the same second: the date cannot tell them apart, either may pay.
      const sameSecond = { ...later, created_at_ms: 1_900 };
      expect(kinds([paidTx, sameSecond], byLater)).toEqual([]);
    });

    it('with faults on, the sale paid in time by either counts for the earlier one', () => {
      // The till could not see the earlier transfer yet: paid 10 s after it settled, in time.
      expect(kinds([paidTx, later], byLater, faultsOn(1_000_000))).toEqual([]);
      // ...but paid later than the bound after the earlier one settled is still slow.
      const slow = {
        ...byLater,
        sales: [{ ...byLater.sales[0]!, paidAt: 1_000 + PAID_BOUND_MS + 1 }],
        events: [
          ...good.events.slice(0, 2),
          { saleId: 1, at: 1_000 + PAID_BOUND_MS + 1, toState: 'paid', cause: 'test' },
        ],
      };
      expect(kinds([paidTx, later], slow, faultsOn(1_000_000))).toContain('open_payment_slow');
    });
  });

  it('catches a payment sent after cancel that is not flagged', () => {
    const afterCancel = { ...paidTx, created_at_ms: 600, settled_at_ms: 600 };
    const events = [
      { saleId: 1, at: 0, toState: 'awaiting_payment', cause: 'test' },
      { saleId: 1, at: 500, toState: 'cancelled', cause: 'test' },
      { saleId: 1, at: 1_000, toState: 'paid', cause: 'test' },
    ];
    expect(kinds([afterCancel], { ...good, events })).toContain('late_not_flagged');
    const late = {
      ...good,
      events: events.map((e) =>
        e.toState === 'paid' ? { ...e, toState: 'paid_late', cause: 'test' } : e,
      ),
      sales: [{ ...good.sales[0]!, state: 'paid_late' }],
    };
    expect(kinds([afterCancel], late)).toEqual(['late_not_flagged']); // no alert
    const flagged = {
      ...late,
      alerts: [{ kind: 'paid_late', saleId: 1, sessionId: paidTx.session_id }],
    };
    expect(kinds([afterCancel], flagged)).toEqual([]);
  });

  it('lets a payment dated up to the final check after the deadline be paid, not later ones', () => {
    const expiredAt = 900_000 + 5_000;
    const events = [
      { saleId: 1, at: 0, toState: 'awaiting_payment', cause: 'test' },
      { saleId: 1, at: expiredAt, toState: 'expired', cause: 'test' },
      { saleId: 1, at: expiredAt + 20_000, toState: 'paid', cause: 'test' },
    ];
    const inTime = { ...paidTx, created_at_ms: expiredAt, settled_at_ms: expiredAt };
    expect(kinds([inTime], { ...good, events })).toEqual([]);
    const late = {
      ...paidTx,
      created_at_ms: expiredAt + 10_000,
      settled_at_ms: expiredAt + 10_000,
    };
    expect(kinds([late], { ...good, events })).toEqual(['late_not_flagged']);
  });

  it('catches a sale left open and a double count', () => {
    const sales = [
      good.sales[0]!,
      { ...good.sales[0]!, id: 2, reference: 'REF-2', accountId: 2 },
      { ...good.sales[0]!, id: 3, state: 'awaiting_payment', paidSessionId: null, paidAt: null },
    ];
    const result = kinds([paidTx], { ...good, sales });
    expect(result).toContain('double_count');
    expect(result).toContain('left_open');
    expect(kinds([paidTx], { ...good, sales }, faultsOn(1_000_000))).not.toContain('left_open');
  });

  describe('a transfer settled while its sale was open ends paid, within the bound', () => {
    it('times it, and splits "no button" from "cashier pressed"', () => {
      const result = checkInvariants([paidTx], good, faultsOn(1_000_000));
      expect(result.openPayments).toBe(1);
      expect(result.timeToPaid).toEqual([
        expect.objectContaining({
          saleId: 1,
          ms: 10_000,
          boundMs: PAID_BOUND_MS,
          pressed: false,
          afterPressMs: null,
        }),
      ]);
      const pressed = checkInvariants(
        [paidTx],
        good,
        faultsOn(1_000_000, { presses: [10_500, 9_000] }),
      );
      expect(pressed.timeToPaid[0]).toEqual(
        expect.objectContaining({ pressed: true, ms: 10_000, afterPressMs: 2_000 }),
      );
      // A press before the money settled is not a press for it.
      const early = checkInvariants([paidTx], good, faultsOn(1_000_000, { presses: [500] }));
      expect(early.timeToPaid[0]?.pressed).toBe(false);
    });

    it('catches a sale paid later than the bound, unless provider trouble explains it', () => {
      const sales = [{ ...good.sales[0]!, paidAt: 1_000 + PAID_BOUND_MS + 1 }];
      expect(kinds([paidTx], { ...good, sales }, faultsOn(1_000_000))).toEqual([
        'open_payment_slow',
      ]);
      expect(kinds([paidTx], { ...good, sales }, faultsOn(1_000_000, { slack: 15_000 }))).toEqual(
        [],
      );
    });

    it('catches a sale expired, paid late or still waiting once the bound has passed', () => {
      for (const state of ['expired', 'confirming', 'awaiting_payment']) {
        const sales = [{ ...good.sales[0]!, state, paidSessionId: null, paidAt: null }];
        expect(kinds([paidTx], { ...good, sales }, faultsOn(1_000 + PAID_BOUND_MS + 1))).toEqual([
          'open_payment_not_paid',
        ]);
      }
      const late = {
        ...good,
        sales: [{ ...good.sales[0]!, state: 'paid_late' }],
        alerts: [{ kind: 'paid_late', saleId: 1, sessionId: paidTx.session_id }],
      };
      expect(kinds([paidTx], late, faultsOn(1_000_000))).toEqual(['open_payment_not_paid']);
    });

    it('catches a sale expired after its money settled in time, even if paid later', () => {
      const events = [
        ...good.events.slice(0, 2),
        { saleId: 1, at: 905_000, toState: 'expired', cause: 'test' },
        { saleId: 1, at: 930_000, toState: 'paid', cause: 'test' },
      ];
      const sales = [{ ...good.sales[0]!, paidAt: 930_000 }];
      const result = kinds(
        [paidTx],
        { ...good, sales, events },
        faultsOn(1_000_000, { slack: 10_000_000 }),
      );
      expect(result).toEqual(['open_payment_expired']);
    });

    it('waits for a payment whose bound has not passed yet', () => {
      const sales = [
        { ...good.sales[0]!, state: 'awaiting_payment', paidSessionId: null, paidAt: null },
      ];
      const result = checkInvariants([paidTx], { ...good, sales }, faultsOn(20_000));
      expect(result.violations).toEqual([]);
      expect(result.notYetDue).toEqual([
        { saleId: 1, sessionId: paidTx.session_id, dueAt: 1_000 + PAID_BOUND_MS },
      ]);
    });

    it('leaves out money that settled after the deadline or after a cancel', () => {
      const sales = [{ ...good.sales[0]!, state: 'expired', paidSessionId: null, paidAt: null }];
      const afterDeadline = { ...paidTx, created_at_ms: 890_000, settled_at_ms: 901_000 };
      const result = checkInvariants([afterDeadline], { ...good, sales }, faultsOn(2_000_000));
      expect(result.openPayments).toBe(0);
      expect(result.violations).toEqual([]);
      const events = [
        { saleId: 1, at: 0, toState: 'awaiting_payment', cause: 'test' },
        { saleId: 1, at: 1_000, toState: 'cancelled', cause: 'test' },
      ];
      const cancelled = [
        { ...good.sales[0]!, state: 'cancelled', paidSessionId: null, paidAt: null },
      ];
      const atCancel = checkInvariants(
        [paidTx],
        { ...good, sales: cancelled, events },
        faultsOn(2_000_000),
      );
      expect(atCancel.openPayments).toBe(0);
    });
  });

  it('slack: nothing on a clean wait; the smaller of per answer and per stretch otherwise', () => {
    const troubles = [
      { from: 0, to: 10_000, answers: 1 },
      { from: 10_000, to: 20_000, answers: 6 },
      { from: 60_000, to: 70_000, answers: 1 },
    ];
    expect(troubleSlackMs(troubles, 30_000, 50_000, 15_000)).toBe(0);
    // One answer: one lost check.
    expect(troubleSlackMs(troubles, 65_000, 90_000, 15_000)).toBe(15_000);
    // Seven answers in one stretch: the stretch (5 s overlap + 15 s and 10 s) is smaller.
    expect(troubleSlackMs(troubles, 5_000, 30_000, 15_000)).toBe(5_000 + 10_000 + 15_000);
    // Two stretches: one check after each.
    expect(troubleSlackMs(troubles, 5_000, 65_000, 15_000)).toBe(15_000 + 15_000 + 15_000 + 5_000);
  });

  it('percentile: nearest rank', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([5], 99)).toBe(5);
    expect(percentile([4, 1, 3, 2], 50)).toBe(2);
    expect(percentile([4, 1, 3, 2], 99)).toBe(4);
  });
});
