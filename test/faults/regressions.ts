/**
 * Campaign runs that once failed, replayed by `npm test` (regressions.test.ts) whatever seed the
 * long campaign takes next. Each entry is the replay line's seed and run, with the SIGKILL
 * cadence of the campaign that found it (a run's till is a SIGKILLed child by its index).
 */
export interface RegressionRun {
  readonly seed: number;
  readonly run: number;
  readonly sigkillEvery: number;
  /** What went wrong, and the issue that fixed it. */
  readonly why: string;
}

const PAID_BY_THE_LATER_TRANSFER =
  'issue 31: a customer paid twice; the till took the later transfer (the status endpoint shows the newest) for the payment and never corrected it when the listing showed the earlier one';

export const REGRESSION_RUNS: readonly RegressionRun[] = [349, 475, 681, 902, 974].map((run) => ({
  seed: 868_888_523,
  run,
  sigkillEvery: 25,
  why: PAID_BY_THE_LATER_TRANSFER,
}));
