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

const paidByTheLater = (seed: number, runs: readonly number[]): RegressionRun[] =>
  runs.map((run) => ({ seed, run, sigkillEvery: 25, why: PAID_BY_THE_LATER_TRANSFER }));

export const REGRESSION_RUNS: readonly RegressionRun[] = [
  ...paidByTheLater(868_888_523, [349, 475, 681, 902, 974]),
  // The 300-run campaign of CI's first day (seed from the date), on the code before the fix.
  ...paidByTheLater(20_261_203, [7, 104]),
];
