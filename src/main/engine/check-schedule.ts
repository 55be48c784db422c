import { isOpenSaleState, type SaleState } from '#shared/sales';

/**
 * When the till asks the provider about a sale by itself. A callback is only a hint and may
 * never come, so every open sale has a steady safety-net check whatever the callback route
 * claims; the interface's backoff (section 8: 2 s, 4 s, 8 s, then 30 s or more) runs on top of
 * it after news that money may be on its way.
 */
export interface CheckPolicy {
  /** The interface's first retries after a callback timeout, a pending answer or a press. */
  readonly backoffMs: readonly number[];
  /** The interface's 4th and later step; capped by the safety net (the smaller one wins). */
  readonly steadyMs: number;
  /** Every open sale is checked at least this often while callbacks are believed to arrive. */
  readonly safetyNetMs: number;
  /** ...and this often while they are known not to (no route, not reaching, changed address). */
  readonly degradedMs: number;
  /**
   * The request budget: on average at most one status request per this many ms over a sale's
   * life. Backoff steps may run ahead of it for a moment; the steady checks after them are
   * spaced so that the average over the life is back within the budget.
   */
  readonly budgetMs: number;
  /** Cadence for a cancelled or expired sale, still watched for a late payment. */
  readonly lateCheckMs: number;
  /** How long after its deadline a sale is still watched (and an unclear one kept open). */
  readonly lateGraceMs: number;
  /** Wait after the deadline before the final status check (provider clock skew). */
  readonly expiryCheckDelayMs: number;
  /** A press this soon after a status request reuses its answer instead of sending another. */
  readonly pressReuseMs: number;
  /** How old the shared listing read may be for a safety-net check's lookup. */
  readonly listingCacheMs: number;
}

export const DEFAULT_CHECK_POLICY: CheckPolicy = {
  backoffMs: [2_000, 4_000, 8_000],
  steadyMs: 30_000,
  safetyNetMs: 15_000,
  degradedMs: 10_000,
  budgetMs: 10_000,
  lateCheckMs: 60_000,
  lateGraceMs: 30 * 60_000,
  expiryCheckDelayMs: 5_000,
  pressReuseMs: 2_000,
  listingCacheMs: 10_000,
};

export interface NextCheckInput {
  readonly state: SaleState;
  readonly now: number;
  readonly expiresAt: number | null;
  /** When this watch began: the start of the sale's life for the budget. */
  readonly watchedSince: number;
  /** Status requests made for the sale since watchedSince (callbacks' and presses' included). */
  readonly checks: number;
  readonly lastCheckAt: number | null;
  /** The next step of a running backoff (index into backoffMs), or null when none runs. */
  readonly backoffStep: number | null;
  /** Callbacks are known not to reach this sale: no route, health not reaching, old address. */
  readonly callbacksDegraded: boolean;
}

/** Until when a sale is worth asking about, or null when never again. */
export function watchEndsAt(
  state: SaleState,
  expiresAt: number | null,
  policy: CheckPolicy,
): number | null {
  if (state === 'creating') return null;
  if (isOpenSaleState(state)) {
    return expiresAt === null ? Number.POSITIVE_INFINITY : expiresAt + policy.lateGraceMs;
  }
  // The account may still take money (a provider that accepts transfers after expiry, or a
  // cancel the provider never heard of): a late payment must be flagged, never lost.
  if (state === 'cancelled' || state === 'expired') {
    return expiresAt === null ? null : expiresAt + policy.lateGraceMs;
  }
  return null;
}

/**
 * Milliseconds from now until the sale's next status check, or null for no more checks (paid,
 * abandoned, or past its watch). The deadline's final check is not scheduled here: it runs at
 * its own time whatever this says.
 */
export function nextCheckDelay(input: NextCheckInput, policy: CheckPolicy): number | null {
  const end = watchEndsAt(input.state, input.expiresAt, policy);
  if (end === null || input.now >= end) return null;
  const from = input.lastCheckAt ?? input.watchedSince;
  if (!isOpenSaleState(input.state)) {
    return Math.max(0, Math.min(from + policy.lateCheckMs, end) - input.now);
  }
  const step = input.backoffStep === null ? undefined : policy.backoffMs[input.backoffStep];
  if (step !== undefined) return Math.max(0, from + step - input.now);
  const interval = Math.min(
    policy.steadyMs,
    input.callbacksDegraded ? policy.degradedMs : policy.safetyNetMs,
  );
  const steady = from + interval;
  // The budget is an average over the sale's life (to its final check, or to the end of the
  // grace once past it): the checks still allowed, one kept for the final check, are spread over
  // the time left, so a backoff's extra requests are paid back by slightly slower steady ones.
  const finalAt =
    input.expiresAt === null
      ? Number.POSITIVE_INFINITY
      : input.expiresAt + policy.expiryCheckDelayMs;
  const horizon = from < finalAt ? finalAt : end;
  if (!Number.isFinite(horizon)) return Math.max(0, steady - input.now);
  const allowed = (horizon - input.watchedSince) / policy.budgetMs - input.checks - 1;
  const spread =
    allowed >= 1
      ? from + (horizon - from) / allowed
      : input.watchedSince + (input.checks + 1) * policy.budgetMs;
  return Math.max(0, Math.ceil(Math.max(steady, spread) - input.now));
}
