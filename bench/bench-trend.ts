/**
 * The trend of the judged figures, generated from bench-results/history.jsonl into a marked block
 * of docs/benchmarks.md: one row per judged figure (a ratio target or a bound), its judged
 * quantity and result in each of the last recorded runs, and its target. `npx tsx
 * scripts/bench-trend.ts` rewrites the block (a recorded `npm run bench` does too);
 * test/bench-trend.test.ts checks that the committed block is what the committed history gives,
 * so the block cannot drift from the history.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import {
  HISTORY_FILE,
  describeRun,
  figureKey,
  formatRatioTarget,
  parseHistory,
  storedNumber,
  storedRatio,
  type HistoryFigure,
  type HistoryLine,
} from './bench-report';

export const TREND_START =
  '<!-- bench-trend:start: generated from bench-results/history.jsonl by `npx tsx scripts/bench-trend.ts`; do not edit by hand -->';
export const TREND_END = '<!-- bench-trend:end -->';
/** The document with the trend block, relative to the project's root. */
export const TREND_DOC = 'docs/benchmarks.md';
/** Runs shown as columns, the newest; older ones stay in the history file. */
export const TREND_RUNS = 8;

export class TrendBlockError extends Error {
  readonly code = 'NO_TREND_BLOCK';
  constructor(message: string) {
    super(message);
    this.name = 'TrendBlockError';
  }
}

/**
 * What a run judged of a figure: its ratio to the same-run baseline, or for a bound its worst
 * repetition (the one a bound is judged on).
 */
function judgedQuantity(figure: HistoryFigure): string {
  const worst =
    figure.bound === undefined
      ? null
      : `worst ${storedNumber(figure.bound.max === undefined ? figure.spread.min : figure.spread.max)} ${figure.unit}`;
  if (figure.ratioTarget === undefined) return worst ?? storedRatio(figure.ratio);
  return worst === null ? storedRatio(figure.ratio) : `${storedRatio(figure.ratio)}, ${worst}`;
}

interface TrendRow {
  readonly figure: HistoryFigure;
  readonly target: string;
  readonly cells: readonly (HistoryFigure | null)[];
}

function rowsOf(runs: readonly HistoryLine[]): readonly TrendRow[] {
  const latest = new Map<string, HistoryFigure>();
  const benchOrder: string[] = [];
  for (const run of [...runs].reverse()) {
    for (const figure of run.figures) {
      if (figure.pass === null) continue;
      if (!latest.has(figureKey(figure))) latest.set(figureKey(figure), figure);
      if (!benchOrder.includes(figure.bench)) benchOrder.push(figure.bench);
    }
  }
  const rows = [...latest].map(([key, figure]) => ({
    figure,
    target: formatRatioTarget(figure),
    cells: runs.map((run) => run.figures.find((f) => figureKey(f) === key) ?? null),
  }));
  // Stable: within a bench, the newest run's order, then figures only older runs had.
  return rows.sort(
    (a, b) => benchOrder.indexOf(a.figure.bench) - benchOrder.indexOf(b.figure.bench),
  );
}

function cell(figure: HistoryFigure | null, rowTarget: string): string {
  if (figure === null) return '–';
  if (figure.pass === null) return `${storedRatio(figure.ratio)} not judged`;
  const target = formatRatioTarget(figure);
  const result = figure.pass ? 'pass' : '**MISSED**';
  return `${judgedQuantity(figure)} ${result}${target === rowTarget ? '' : ` (then ${target})`}`;
}

/** The block's content (between the markers), in Markdown; Prettier lines its table up. */
export function renderTrend(history: readonly HistoryLine[]): string {
  const runs = history.slice(-TREND_RUNS);
  if (runs.length === 0) return 'No run recorded yet.';
  const rows = rowsOf(runs);
  const header = [
    'bench',
    'figure',
    'target',
    ...runs.map((run) => `${run.date.slice(0, 10)} ${run.commit.slice(0, 7)}`),
  ];
  const lines = [
    header,
    header.map(() => '---'),
    ...rows.map((row) => [
      row.figure.bench,
      row.figure.name,
      row.target,
      ...row.cells.map((figure) => cell(figure, row.target)),
    ]),
  ].map((cells) => `| ${cells.join(' | ')} |`);
  return [
    `The judged figures of the last ${runs.length} recorded runs (of ${history.length}), oldest first. A cell is the ratio to the same-run baseline (for a bound, the worst repetition) and that run's result; "then" gives the target that run judged against when it was another; – : not in that run.`,
    '',
    ...lines,
    '',
    ...runs.map((run) => `- ${describeRun(run)}`),
  ].join('\n');
}

/** `doc` with its trend block's content replaced by `content`; both markers must be there. */
export function withTrendBlock(doc: string, content: string): string {
  const start = doc.indexOf(TREND_START);
  const end = doc.indexOf(TREND_END);
  if (start < 0 || end < start) {
    throw new TrendBlockError(`the document has no trend block (${TREND_START} … ${TREND_END})`);
  }
  return `${doc.slice(0, start)}${TREND_START}\n\n${content}\n\n${doc.slice(end)}`;
}

/** The document as Prettier formats it, with the trend of `history` in its block. */
export async function docWithTrend(
  doc: string,
  history: readonly HistoryLine[],
  docFile: string,
): Promise<string> {
  const config = (await resolveConfig(docFile)) ?? {};
  return format(withTrendBlock(doc, renderTrend(history)), { ...config, filepath: docFile });
}

/**
 * Rewrites the trend block of TREND_DOC from HISTORY_FILE under `root`; with `check`, only says
 * whether it would change. True when the document differs (or differed) from the generated one.
 */
export async function updateTrendDoc(root: string, check = false): Promise<boolean> {
  const historyFile = join(root, HISTORY_FILE);
  const docFile = join(root, TREND_DOC);
  const history = existsSync(historyFile) ? parseHistory(readFileSync(historyFile, 'utf8')) : [];
  const doc = readFileSync(docFile, 'utf8');
  const generated = await docWithTrend(doc, history, docFile);
  if (generated === doc) return false;
  if (!check) writeFileSync(docFile, generated);
  return true;
}
