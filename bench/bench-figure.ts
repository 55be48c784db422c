/**
 * The shape every benchmark reports (issue 16): a figure is the median of at least five
 * repetitions with its spread, beside a baseline measured in the same run, judged as a ratio to
 * it. Absolute figures are printed, never judged: the same code on a busier machine gives other
 * absolute times but about the same ratios.
 */

export interface Spread {
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

export interface BenchFigure {
  readonly name: string;
  readonly unit: string;
  /** The median of at least 5 repetitions. */
  readonly value: number;
  /** Of those repetitions. */
  readonly spread: Spread;
  readonly baselineName: string;
  /** Median, same run. */
  readonly baseline: number;
  readonly baselineSpread: Spread;
  /**
   * When figure and baseline were measured in the same interleaved rounds: the median of the
   * ratios of each round (subject / baseline of that round). Then it is the ratio judged and
   * printed, instead of value / baseline: a round that met a busy machine meets it on both sides,
   * and one bad round of either side does not decide.
   */
  readonly pairedRatio?: number;
  /** Judged: value / baseline must be <= max (times) or >= min (throughputs). */
  readonly ratioTarget?: { readonly max?: number; readonly min?: number };
  /** Printed, never judged: e.g. "< 50 ms" with whether this run met it. */
  readonly absoluteTarget?: { readonly text: string; readonly met: boolean };
  /**
   * Judged on the figure itself, for the few figures machine speed does not set: clock times of
   * the till's own check schedule (manual clock), byte sizes. Checked on the worst repetition
   * (spread.max against max, spread.min against min), so one bad repetition is a miss.
   */
  readonly bound?: { readonly max?: number; readonly min?: number; readonly why: string };
  readonly note?: string;
}

/** What the runner gives each bench: the seed of every random order it picks (printed). */
export interface BenchContext {
  readonly seed: number;
  /**
   * CI's quick mode (`npm run bench -- --quick`): fewer rounds and a smaller history, the same
   * real path. Figures are printed; a run on a shared CI machine is not judged.
   */
  readonly quick: boolean;
}

/** A benchmark module: bench/<name>.bench.ts exporting run(). */
export interface BenchModule {
  run(context: BenchContext): Promise<readonly BenchFigure[]>;
}

/** Repetitions every figure is the median of, unless a bench says why it takes more. */
export const REPETITIONS = 5;

/** Repetitions in quick mode: the fewest whose median still sets one bad repetition aside. */
export const QUICK_REPETITIONS = 3;

/**
 * The repetitions of a figure in this run: `full` (REPETITIONS unless the bench takes more), or
 * QUICK_REPETITIONS in quick mode.
 */
export function repetitions(context: BenchContext, full = REPETITIONS): number {
  return context.quick ? Math.min(full, QUICK_REPETITIONS) : full;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** Median of any order of values: the middle one, or the mean of the middle two. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

export function spreadOf(values: readonly number[]): Spread {
  return {
    min: values.length === 0 ? Number.NaN : Math.min(...values),
    max: values.length === 0 ? Number.NaN : Math.max(...values),
    n: values.length,
  };
}

/** The median and spread of repetitions already measured (e.g. interleaved with a baseline). */
export function summarise(values: readonly number[]): { median: number; spread: Spread } {
  return { median: median(values), spread: spreadOf(values) };
}

/** Runs fn n times (after warm-ups) and returns the median and spread. */
export async function repeat(
  n: number,
  fn: () => Promise<number> | number,
  warmups = 0,
): Promise<{ median: number; spread: Spread }> {
  for (let i = 0; i < warmups; i++) await fn();
  const values: number[] = [];
  for (let i = 0; i < n; i++) values.push(await fn());
  return summarise(values);
}
