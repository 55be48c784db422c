/**
 * The pure part of `npm run bench` (scripts/bench.ts does the running, the clock and the files):
 * judging each figure, the run's exit code and closing summary, the one table, whether a run is
 * recorded, the line appended to bench-results/history.jsonl and the change from the last
 * recorded run. Kept free of I/O so that test/bench-runner.test.ts can check each rule, including
 * a planted miss that must make --strict exit 1 and a bench that fails to run, which must make
 * every run exit 1.
 */
import { z } from 'zod';
import type { BenchFigure, Spread } from './bench-figure';

export interface BenchResult {
  readonly bench: string;
  readonly figure: BenchFigure;
}

export interface Judgement {
  /** value / baseline (or the figure's pairedRatio); NaN when the baseline is 0 or not a number. */
  readonly ratio: number;
  /** null: no ratio target. A ratio that is not a number misses its target: it cannot be judged. */
  readonly ratioPass: boolean | null;
  /** null: no bound. */
  readonly boundPass: boolean | null;
  /** null: nothing judged; otherwise every judged target met. */
  readonly pass: boolean | null;
}

export function ratioOf(figure: Pick<BenchFigure, 'value' | 'baseline' | 'pairedRatio'>): number {
  const ratio = figure.pairedRatio ?? figure.value / figure.baseline;
  return Number.isFinite(ratio) ? ratio : Number.NaN;
}

export function judgeFigure(figure: BenchFigure): Judgement {
  const ratio = ratioOf(figure);
  const target = figure.ratioTarget;
  const ratioPass =
    target === undefined || (target.max === undefined && target.min === undefined)
      ? null
      : !Number.isNaN(ratio) &&
        (target.max === undefined || ratio <= target.max) &&
        (target.min === undefined || ratio >= target.min);
  const bound = figure.bound;
  // The worst repetition decides: a bound is a promise about every run, not the typical one.
  const boundPass =
    bound === undefined || (bound.max === undefined && bound.min === undefined)
      ? null
      : (bound.max === undefined || figure.spread.max <= bound.max) &&
        (bound.min === undefined || figure.spread.min >= bound.min);
  const judged = [ratioPass, boundPass].filter((pass): pass is boolean => pass !== null);
  return {
    ratio,
    ratioPass,
    boundPass,
    pass: judged.length === 0 ? null : judged.every(Boolean),
  };
}

/** The figures that miss a judged target (ratio or bound); absolute targets are never judged. */
export function missedFigures(results: readonly BenchResult[]): readonly BenchResult[] {
  return results.filter(({ figure }) => judgeFigure(figure).pass === false);
}

/** A bench that threw instead of giving its figures, with the first line of its error. */
export interface BenchFailure {
  readonly bench: string;
  readonly error: string;
}

/** What a run gave, and how it was asked to judge it. */
export interface RunOutcome {
  readonly results: readonly BenchResult[];
  readonly failures: readonly BenchFailure[];
  /** --strict: a missed judged target fails the run. */
  readonly strict: boolean;
  /** --quick: targets are printed, not judged (a shared CI machine). */
  readonly quick: boolean;
}

/**
 * 1 whenever a bench failed to run, whatever the options (its figures are missing, so nothing
 * of it was judged); otherwise 1 only with --strict and a missed judged target, and never in
 * quick mode, where nothing is judged.
 */
export function exitCodeFor(run: RunOutcome): 0 | 1 {
  if (run.failures.length > 0) return 1;
  return run.strict && !run.quick && missedFigures(run.results).length > 0 ? 1 : 0;
}

export const EVERY_TARGET_MET = 'Every judged target (ratios and bounds) met.';

function figureList(results: readonly BenchResult[]): string {
  return results.map(({ bench, figure }) => `${bench} / ${figure.name}`).join('; ');
}

/**
 * The run's closing lines. EVERY_TARGET_MET only when every bench ran, the run was judged (not
 * quick) and no judged target was missed; a bench that failed to run is named first.
 */
export function runSummary(run: RunOutcome): string {
  const missed = missedFigures(run.results);
  const judged = run.results.filter(({ figure }) => judgeFigure(figure).pass !== null).length;
  const lines: string[] = [];
  if (run.failures.length > 0) {
    const names = run.failures.map((failure) => failure.bench).join(', ');
    lines.push(
      run.failures.length === 1
        ? `1 bench failed to run (${names}): no figures from it, so none of its targets was judged.`
        : `${run.failures.length} benches failed to run (${names}): no figures from them, so none of their targets was judged.`,
    );
  }
  const of = run.failures.length > 0 ? 'Of the benches that ran: ' : '';
  if (run.failures.length > 0 && run.results.length === 0) return lines.join('\n');
  if (run.quick) {
    lines.push(
      `Quick run, targets printed, not judged (a shared machine): ${of.toLowerCase()}${
        missed.length === 0
          ? `every figure with a target met it (${judged}).`
          : `${missed.length} of ${judged} figures with a target missed it: ${figureList(missed)}`
      }`,
    );
  } else if (missed.length > 0) {
    lines.push(`${of}Missed: ${figureList(missed)}`);
  } else {
    lines.push(run.failures.length > 0 ? `${of}every judged target met.` : EVERY_TARGET_MET);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// The table

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 0.1) return value.toFixed(2);
  return value.toPrecision(2);
}

export function formatSpread(spread: Spread): string {
  return `${formatNumber(spread.min)}–${formatNumber(spread.max)} n=${spread.n}`;
}

export function formatRatio(ratio: number): string {
  if (Number.isNaN(ratio)) return 'n/a';
  return ratio >= 10
    ? `${ratio.toFixed(0)}×`
    : ratio >= 0.1
      ? `${ratio.toFixed(2)}×`
      : `${ratio.toPrecision(2)}×`;
}

/** A target as written: at most three significant digits (1/3 is "0.333"). */
function targetNumber(value: number): string {
  return String(Number(value.toPrecision(3)));
}

/** A figure's targets: a BenchFigure's, or a recorded one's (HistoryFigure). */
type Targets = Pick<BenchFigure, 'unit'> & {
  readonly ratioTarget?: { readonly max?: number; readonly min?: number };
  readonly bound?: { readonly max?: number; readonly min?: number };
};

export function formatRatioTarget(figure: Targets): string {
  const parts: string[] = [];
  if (figure.ratioTarget?.max !== undefined)
    parts.push(`≤ ${targetNumber(figure.ratioTarget.max)}×`);
  if (figure.ratioTarget?.min !== undefined)
    parts.push(`≥ ${targetNumber(figure.ratioTarget.min)}×`);
  if (figure.bound?.max !== undefined)
    parts.push(`bound ≤ ${formatNumber(figure.bound.max)} ${figure.unit}`);
  if (figure.bound?.min !== undefined)
    parts.push(`bound ≥ ${formatNumber(figure.bound.min)} ${figure.unit}`);
  return parts.join(', ');
}

/** Quick mode keeps the word a judged run would give, and says it was not judged. */
export const NOT_JUDGED_QUICK = 'not judged (quick)';

function resultWord(pass: boolean | null, quick: boolean): string {
  if (pass === null) return '';
  if (quick) return `${pass ? 'met' : 'missed'}, ${NOT_JUDGED_QUICK}`;
  return pass ? 'pass' : 'MISSED';
}

/** How the table is printed: a quick run's targets are shown, not judged. */
export interface TableOptions {
  readonly quick?: boolean;
}

export const TABLE_HEADER = [
  'bench',
  'figure',
  'value',
  'spread',
  'baseline (same run)',
  'baseline',
  'ratio',
  'target (judged)',
  'absolute (printed)',
  'result',
] as const;

export function tableRows(
  results: readonly BenchResult[],
  options: TableOptions = {},
): readonly (readonly string[])[] {
  return results.map(({ bench, figure }) => {
    const judgement = judgeFigure(figure);
    return [
      bench,
      figure.name,
      `${formatNumber(figure.value)} ${figure.unit}`,
      formatSpread(figure.spread),
      figure.baselineName,
      `${formatNumber(figure.baseline)} (${formatSpread(figure.baselineSpread)})`,
      formatRatio(judgement.ratio),
      formatRatioTarget(figure),
      figure.absoluteTarget
        ? `${figure.absoluteTarget.text}: ${figure.absoluteTarget.met ? 'met' : 'not met'}`
        : '',
      resultWord(judgement.pass, options.quick ?? false),
    ];
  });
}

/** A plain-text table: padded columns, a rule under the header. */
export function renderTable(rows: readonly (readonly string[])[]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length))) ??
    [];
  const pad = (cell: string, width: number): string =>
    cell + ' '.repeat(Math.max(0, width - [...cell].length));
  return rows
    .map((row, index) => {
      const line = row
        .map((cell, column) => pad(cell, widths[column] ?? 0))
        .join('  ')
        .trimEnd();
      return index === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

export function renderResults(results: readonly BenchResult[], options: TableOptions = {}): string {
  const table = renderTable([[...TABLE_HEADER], ...tableRows(results, options)]);
  const notes = results
    .filter(({ figure }) => figure.note)
    .map(({ bench, figure }) => `  ${bench} / ${figure.name}: ${figure.note ?? ''}`);
  const byWhy = new Map<string, string[]>();
  for (const { bench, figure } of results) {
    if (!figure.bound) continue;
    byWhy.set(figure.bound.why, [
      ...(byWhy.get(figure.bound.why) ?? []),
      `${bench} / ${figure.name}`,
    ]);
  }
  const judged = options.quick ? `read (${NOT_JUDGED_QUICK})` : 'judged';
  const bounds = [...byWhy].map(
    ([why, names]) =>
      `  Bounds, ${judged} on the worst repetition, because ${why}: ${names.join('; ')}`,
  );
  return [table, ...notes, ...bounds].join('\n');
}

// ---------------------------------------------------------------------------------------------
// History: bench-results/history.jsonl, one line per recorded run

export const HISTORY_VERSION = 1;
/** Relative to the project's root; committed (the rest of bench-results/ is not). */
export const HISTORY_FILE = 'bench-results/history.jsonl';

const numberOrNull = z.number().nullable();

const historyFigureSchema = z.object({
  bench: z.string(),
  name: z.string(),
  unit: z.string(),
  value: numberOrNull,
  spread: z.object({ min: numberOrNull, max: numberOrNull, n: z.number() }),
  baselineName: z.string(),
  baseline: numberOrNull,
  baselineSpread: z.object({ min: numberOrNull, max: numberOrNull, n: z.number() }),
  ratio: numberOrNull,
  ratioTarget: z.object({ max: z.number().optional(), min: z.number().optional() }).optional(),
  bound: z.object({ max: z.number().optional(), min: z.number().optional() }).optional(),
  absoluteTarget: z.object({ text: z.string(), met: z.boolean() }).optional(),
  pass: z.boolean().nullable(),
});

const machineSchema = z.object({
  cpus: z.number(),
  cpuModel: z.string(),
  memoryGiB: z.number(),
  node: z.string(),
  platform: z.string(),
});

const loadSchema = z.object({
  bench: z.string(),
  before: z.number(),
  after: z.number(),
  seconds: z.number(),
});

const historyLineSchema = z.object({
  version: z.literal(HISTORY_VERSION),
  date: z.string(),
  commit: z.string(),
  dirty: z.boolean(),
  seed: z.number(),
  machine: machineSchema,
  load: z.array(loadSchema),
  figures: z.array(historyFigureSchema),
});

export type HistoryFigure = z.infer<typeof historyFigureSchema>;
export type MachineInfo = z.infer<typeof machineSchema>;
export type BenchLoad = z.infer<typeof loadSchema>;
export type HistoryLine = z.infer<typeof historyLineSchema>;

export class BenchHistoryError extends Error {
  readonly code = 'BAD_HISTORY_LINE';
  constructor(message: string) {
    super(message);
    this.name = 'BenchHistoryError';
  }
}

/** JSON has no NaN or Infinity: a figure that could not be measured is stored as null. */
function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

function storedSpread(spread: Spread): HistoryFigure['spread'] {
  return { min: finiteOrNull(spread.min), max: finiteOrNull(spread.max), n: spread.n };
}

export function historyFigure({ bench, figure }: BenchResult): HistoryFigure {
  const judgement = judgeFigure(figure);
  return {
    bench,
    name: figure.name,
    unit: figure.unit,
    value: finiteOrNull(figure.value),
    spread: storedSpread(figure.spread),
    baselineName: figure.baselineName,
    baseline: finiteOrNull(figure.baseline),
    baselineSpread: storedSpread(figure.baselineSpread),
    ratio: finiteOrNull(judgement.ratio),
    ...(figure.ratioTarget ? { ratioTarget: { ...figure.ratioTarget } } : {}),
    ...(figure.bound
      ? {
          bound: {
            ...(figure.bound.max === undefined ? {} : { max: figure.bound.max }),
            ...(figure.bound.min === undefined ? {} : { min: figure.bound.min }),
          },
        }
      : {}),
    ...(figure.absoluteTarget ? { absoluteTarget: { ...figure.absoluteTarget } } : {}),
    pass: judgement.pass,
  };
}

export function historyLine(input: {
  readonly date: Date;
  readonly commit: string;
  readonly dirty: boolean;
  readonly seed: number;
  readonly machine: MachineInfo;
  readonly load: readonly BenchLoad[];
  readonly results: readonly BenchResult[];
}): HistoryLine {
  return {
    version: HISTORY_VERSION,
    date: input.date.toISOString(),
    commit: input.commit,
    dirty: input.dirty,
    seed: input.seed,
    machine: { ...input.machine },
    load: input.load.map((load) => ({ ...load })),
    figures: input.results.map(historyFigure),
  };
}

/** One line of JSON with its newline, ready to append. */
export function serializeHistoryLine(line: HistoryLine): string {
  return `${JSON.stringify(line)}\n`;
}

/** Every recorded run, oldest first. A line that does not parse is an error, not skipped. */
export function parseHistory(text: string): readonly HistoryLine[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new BenchHistoryError(`history line ${number} is not JSON`);
      }
      const parsed = historyLineSchema.safeParse(json);
      if (!parsed.success) {
        throw new BenchHistoryError(
          `history line ${number} does not have the expected shape: ${parsed.error.issues
            .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
            .join('; ')}`,
        );
      }
      return parsed.data;
    });
}

/** The branch whose runs are recorded without being asked: the history is main's. */
export const RECORDED_BRANCH = 'main';

export interface RecordQuestion {
  /** --record (true), --no-record (false), or neither (undefined: decided by the rules below). */
  readonly asked: boolean | undefined;
  readonly quick: boolean;
  readonly failures: number;
  /** Every registered bench was asked for (no names given). */
  readonly everyBench: boolean;
  /** The branch HEAD is on; null when detached or unknown. */
  readonly branch: string | null;
  /** Uncommitted changes before or after the run: the figures are of no commit. */
  readonly dirty: boolean;
}

export interface RecordDecision {
  readonly record: boolean;
  readonly why: string;
}

/**
 * Whether this run joins bench-results/history.jsonl. Never a run with a bench that failed to
 * run (its figures would read as gone in the next --compare) nor a quick one (smaller stores,
 * fewer rounds); --no-record never, --record always otherwise; without either, a full run of
 * every bench on main with a clean tree.
 */
export function recordDecision(question: RecordQuestion): RecordDecision {
  const forced = ' (--record records it anyway)';
  if (question.failures > 0) return { record: false, why: 'a bench failed to run (see above)' };
  if (question.quick) return { record: false, why: 'a quick run is never recorded' };
  if (question.asked === false) return { record: false, why: '--no-record' };
  if (question.asked === true) return { record: true, why: '--record' };
  if (question.branch !== RECORDED_BRANCH) {
    return {
      record: false,
      why: `HEAD is ${question.branch === null ? 'not on a branch' : `on ${question.branch}`}, not ${RECORDED_BRANCH}${forced}`,
    };
  }
  if (question.dirty) {
    return { record: false, why: `the tree has uncommitted changes${forced}` };
  }
  if (!question.everyBench) return { record: false, why: `not every bench ran${forced}` };
  return {
    record: true,
    why: `a run of every bench on ${RECORDED_BRANCH} with a clean tree (--no-record to skip)`,
  };
}

// ---------------------------------------------------------------------------------------------
// --compare: the change of each figure and ratio from the last recorded run

export interface FigureChange {
  readonly bench: string;
  readonly name: string;
  readonly unit: string;
  readonly before: HistoryFigure | null;
  readonly now: HistoryFigure | null;
  /** (now - before) / before, in percent; null when either side is missing or zero. */
  readonly valueChangePct: number | null;
  readonly ratioChangePct: number | null;
}

export interface Comparison {
  readonly previous: HistoryLine | null;
  readonly changes: readonly FigureChange[];
}

function changePct(
  before: number | null | undefined,
  now: number | null | undefined,
): number | null {
  if (before === null || before === undefined || now === null || now === undefined) return null;
  if (before === 0) return null;
  return ((now - before) / Math.abs(before)) * 100;
}

/**
 * A figure's identity from run to run: its bench and its name, a bracketed count aside ("daily
 * backup of the ten-year store (7.28 GB)" is the same figure when the store is 7.30 GB).
 */
export function figureKey(figure: Pick<HistoryFigure, 'bench' | 'name'>): string {
  return `${figure.bench}\u0000${figure.name.replace(/\s*\([^()]*\d[^()]*\)/g, '')}`;
}

/**
 * Every figure of this run beside the same figure (figureKey) of `previous`; then the
 * figures of `previous` that this run lacks, for the benches this run ran (a run of one bench
 * does not report the others as gone).
 */
export function compareRuns(previous: HistoryLine | null, current: HistoryLine): Comparison {
  if (previous === null) return { previous: null, changes: [] };
  const before = new Map(previous.figures.map((figure) => [figureKey(figure), figure]));
  const ran = new Set(current.figures.map((figure) => figure.bench));
  const seen = new Set<string>();
  const changes: FigureChange[] = current.figures.map((now) => {
    const key = figureKey(now);
    seen.add(key);
    const old = before.get(key) ?? null;
    return {
      bench: now.bench,
      name: now.name,
      unit: now.unit,
      before: old,
      now,
      valueChangePct: changePct(old?.value, now.value),
      ratioChangePct: changePct(old?.ratio, now.ratio),
    };
  });
  for (const old of previous.figures) {
    if (seen.has(figureKey(old)) || !ran.has(old.bench)) continue;
    changes.push({
      bench: old.bench,
      name: old.name,
      unit: old.unit,
      before: old,
      now: null,
      valueChangePct: null,
      ratioChangePct: null,
    });
  }
  return { previous, changes };
}

function signedPct(pct: number | null): string {
  if (pct === null) return '';
  const rounded = Math.abs(pct) >= 10 ? pct.toFixed(0) : pct.toFixed(1);
  if (Number(rounded) === 0) return '0.0%';
  return `${pct > 0 ? '+' : ''}${rounded}%`;
}

export function storedNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? 'n/a' : formatNumber(value);
}

export function storedRatio(value: number | null | undefined): string {
  return value === null || value === undefined ? 'n/a' : formatRatio(value);
}

function storedResult(figure: HistoryFigure | null): string {
  return figure === null ? '–' : figure.pass === null ? '' : figure.pass ? 'pass' : 'MISSED';
}

export function describeRun(line: HistoryLine): string {
  const loads = line.load.map((l) => Math.max(l.before, l.after));
  const peak = loads.length > 0 ? Math.max(...loads).toFixed(2) : 'n/a';
  return `${line.date} at ${line.commit.slice(0, 12)}${line.dirty ? ' (dirty tree)' : ''}, ${line.machine.cpus} × ${line.machine.cpuModel}, Node ${line.machine.node}, 1-min load up to ${peak}`;
}

export function renderComparison(comparison: Comparison): string {
  if (comparison.previous === null) {
    return 'No recorded run to compare with: bench-results/history.jsonl has none yet (record one with --record).';
  }
  const rows = comparison.changes.map((change) => [
    change.bench,
    change.name,
    change.before === null ? 'new' : `${storedNumber(change.before.value)} ${change.unit}`,
    change.now === null ? 'not in this run' : `${storedNumber(change.now.value)} ${change.unit}`,
    signedPct(change.valueChangePct),
    storedRatio(change.before?.ratio),
    storedRatio(change.now?.ratio),
    signedPct(change.ratioChangePct),
    `${storedResult(change.before)} → ${storedResult(change.now)}`,
  ]);
  return [
    `Change from the run recorded ${describeRun(comparison.previous)}:`,
    renderTable([
      ['bench', 'figure', 'then', 'now', 'change', 'ratio then', 'ratio now', 'change', 'result'],
      ...rows,
    ]),
  ].join('\n');
}
