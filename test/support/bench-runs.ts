/**
 * Benchmark figures and recorded runs made up for the runner's tests (test/bench-runner.test.ts,
 * test/bench-trend.test.ts): one figure with every field a bench gives, and a history line of
 * some results, each with overrides.
 */
import type { BenchFigure } from '../../bench/bench-figure';
import { historyLine, type BenchResult, type HistoryLine } from '../../bench/bench-report';

export const BENCH_MACHINE = {
  cpus: 2,
  cpuModel: 'Test CPU',
  memoryGiB: 8,
  node: 'v20.0.0',
  platform: 'linux 6.0',
};

/** A p99 of 12 ms (10–15) against a baseline of 6 ms: ratio 2, no target unless given. */
export function benchFigure(overrides: Partial<BenchFigure> = {}): BenchFigure {
  return {
    name: 'time to answer p99',
    unit: 'ms',
    value: 12,
    spread: { min: 10, max: 15, n: 5 },
    baselineName: 'bare server p99',
    baseline: 6,
    baselineSpread: { min: 5, max: 7, n: 5 },
    ...overrides,
  };
}

/** A recorded run of `results` on 2026-11-23 at commit aaaa…, clean tree, seed 7. */
export function benchRun(
  results: readonly BenchResult[],
  overrides: Partial<HistoryLine> = {},
): HistoryLine {
  return {
    ...historyLine({
      date: new Date('2026-11-23T10:00:00Z'),
      commit: 'a'.repeat(40),
      dirty: false,
      seed: 7,
      machine: BENCH_MACHINE,
      load: [{ bench: 'webhook', before: 1.5, after: 2.5, seconds: 30 }],
      results,
    }),
    ...overrides,
  };
}
