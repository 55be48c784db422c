/**
 * Every campaign run on the regression list (regressions.ts) passes its invariants again: the
 * same seed, run index and SIGKILL cadence as the campaign that found it.
 */
import { describe, expect, it } from 'vitest';
import { runCampaign } from './campaign';
import { REGRESSION_RUNS } from './regressions';
import { formatRun } from './summary';

describe('fault campaign regressions', () => {
  it.each(REGRESSION_RUNS)(
    'seed $seed run $run passes ($why)',
    async (entry) => {
      const summary = await runCampaign({
        runs: entry.run + 1,
        seed: entry.seed,
        sigkillEvery: entry.sigkillEvery,
        concurrency: 1,
        only: entry.run,
        onRun: (report) => console.log(formatRun(report, entry.seed)),
      });
      expect(summary.errors).toEqual([]);
      expect(summary.runs).toBe(1);
      expect(summary.failures.flatMap((r) => [...r.violations, ...r.unplanned])).toEqual([]);
    },
    60_000,
  );
});
