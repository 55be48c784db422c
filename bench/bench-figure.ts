/** One measured figure, printed beside a baseline measured in the same run. */
export interface BenchFigure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baselineName: string;
  readonly baseline: number;
  /** The target in words, e.g. "≥ 2000/s". */
  readonly target?: string;
  readonly pass?: boolean;
  /** A short note printed under the table (e.g. why a target was missed). */
  readonly note?: string;
}

/** A benchmark module: bench/<name>.bench.ts exporting run(). */
export interface BenchModule {
  run(): Promise<readonly BenchFigure[]>;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}
