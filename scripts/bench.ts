/**
 * `npm run bench -- [name…] [--strict] [--record | --no-record] [--compare] [--seed N] [--quick]`:
 * runs the benchmarks of bench/*.bench.ts and prints one table, each figure (the median of at
 * least 5 repetitions, with its spread) beside a baseline measured in the same run and its ratio
 * to it, with the machine and its load. Writes bench-results/latest.json every time.
 *
 * --strict     exit 1 when a figure misses a judged target (a ratio target, or a bound).
 * --record     append this run to bench-results/history.jsonl (committed), with the git commit.
 *              Without it, a run of every bench on main with a clean tree is recorded anyway
 *              (recordDecision); a recorded run also rewrites the trend in docs/benchmarks.md.
 * --no-record  never record this run.
 * --compare    print the change of each figure and ratio from the last recorded run.
 * --seed N     the seed of the random orders (default: from the clock; printed either way).
 * --quick      CI's mode: fewer rounds and a smaller history, every bench on its real path;
 *              targets printed, not judged; never recorded.
 *
 * Exit code: 1 when a bench failed to run (always, whatever else was asked), or with --strict
 * and a missed target; 0 otherwise (exitCodeFor).
 */
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { BenchModule } from '../bench/bench-figure';
import {
  HISTORY_FILE,
  compareRuns,
  exitCodeFor,
  historyLine,
  parseHistory,
  recordDecision,
  renderComparison,
  renderResults,
  runSummary,
  serializeHistoryLine,
  type BenchFailure,
  type BenchLoad,
  type BenchResult,
  type HistoryLine,
  type MachineInfo,
} from '../bench/bench-report';
import { TREND_DOC, updateTrendDoc } from '../bench/bench-trend';

/** Listed explicitly so each module is type-checked; the check below catches a forgotten one. */
const BENCHMARKS: readonly { readonly name: string; load(): Promise<BenchModule> }[] = [
  { name: 'webhook', load: () => import('../bench/webhook.bench') },
  { name: 'sync', load: () => import('../bench/sync.bench') },
  { name: 'outage-sync', load: () => import('../bench/outage-sync.bench') },
  { name: 'z-report', load: () => import('../bench/z-report.bench') },
  { name: 'callback-to-paid', load: () => import('../bench/callback-to-paid.bench') },
  { name: 'fallback-to-paid', load: () => import('../bench/fallback-to-paid.bench') },
  { name: 'create-to-screen', load: () => import('../bench/create-to-screen.bench') },
  { name: 'counter-phone', load: () => import('../bench/counter-phone.bench') },
  { name: 'hub', load: () => import('../bench/hub.bench') },
  { name: 'startup', load: () => import('../bench/startup.bench') },
  { name: 'ten-year-shop', load: () => import('../bench/ten-year-shop.bench') },
  { name: 'memory', load: () => import('../bench/memory.bench') },
  { name: 'busy-day', load: () => import('../bench/busy-day.bench') },
  { name: 'bundle', load: () => import('../bench/bundle.bench') },
];

const root = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_DIR = `${root}bench-results`;
const HISTORY_PATH = `${root}${HISTORY_FILE}`;

class BenchUsageError extends Error {
  readonly code = 'BENCH_USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'BenchUsageError';
  }
}

interface Options {
  readonly wanted: readonly string[];
  readonly strict: boolean;
  /** --record (true), --no-record (false), neither (undefined: recordDecision decides). */
  readonly record: boolean | undefined;
  readonly compare: boolean;
  readonly seed: number;
  readonly quick: boolean;
}

function optionsOf(args: readonly string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        strict: { type: 'boolean' },
        record: { type: 'boolean' },
        'no-record': { type: 'boolean' },
        compare: { type: 'boolean' },
        seed: { type: 'string' },
        quick: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new BenchUsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const seed = values.seed === undefined ? Date.now() % 2_147_483_647 : Number(values.seed);
  if (!Number.isSafeInteger(seed)) throw new BenchUsageError('--seed takes a whole number');
  if (values.record && values['no-record']) {
    throw new BenchUsageError('--record and --no-record: choose one');
  }
  if (values.quick && (values.record || values.strict)) {
    throw new BenchUsageError(
      `--quick with --${values.record ? 'record' : 'strict'}: a quick run is neither judged nor recorded`,
    );
  }
  return {
    wanted: positionals,
    strict: values.strict ?? false,
    record: values.record ? true : values['no-record'] ? false : undefined,
    compare: values.compare ?? false,
    seed,
    quick: values.quick ?? false,
  };
}

function unregistered(): readonly string[] {
  const known = new Set(BENCHMARKS.map((bench) => `${bench.name}.bench.ts`));
  return readdirSync(`${root}bench`).filter(
    (file) => file.endsWith('.bench.ts') && !known.has(file),
  );
}

function machine(): MachineInfo {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${platform()} ${release()}`,
  };
}

interface GitState {
  readonly commit: string;
  /** The tree differed from the commit (then the figures are of no commit). */
  readonly dirty: boolean;
  /** null: detached HEAD, or no git. */
  readonly branch: string | null;
}

function gitState(): GitState {
  try {
    const git = (...args: string[]): string =>
      execFileSync('git', args, {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    const branch = git('rev-parse', '--abbrev-ref', 'HEAD');
    return {
      commit: git('rev-parse', 'HEAD'),
      dirty: git('status', '--porcelain') !== '',
      branch: branch === 'HEAD' ? null : branch,
    };
  } catch {
    return { commit: 'unknown', dirty: true, branch: null };
  }
}

/** Measured is what was there when the run began; a change during it also makes it dirty. */
function gitAcross(before: GitState, after: GitState): GitState {
  return { ...after, dirty: before.dirty || after.dirty || before.commit !== after.commit };
}

function readHistory(): readonly HistoryLine[] {
  return existsSync(HISTORY_PATH) ? parseHistory(readFileSync(HISTORY_PATH, 'utf8')) : [];
}

interface Ran {
  readonly results: readonly BenchResult[];
  /** The machine's 1-minute load average around each bench: other work shares these cores. */
  readonly load: readonly BenchLoad[];
  readonly failures: readonly BenchFailure[];
}

/** A bench that throws is reported and the others still run: one failure must not hide nine results. */
async function runBenches(selected: typeof BENCHMARKS, options: Options): Promise<Ran> {
  const results: BenchResult[] = [];
  const load: BenchLoad[] = [];
  const failures: BenchFailure[] = [];
  for (const bench of selected) {
    process.stderr.write(`bench ${bench.name}: running…\n`);
    const before = loadavg()[0] ?? Number.NaN;
    const started = performance.now();
    try {
      const module = await bench.load();
      for (const figure of await module.run({ seed: options.seed, quick: options.quick })) {
        results.push({ bench: bench.name, figure });
      }
    } catch (error) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`bench ${bench.name} failed: ${text}\n`);
      failures.push({ bench: bench.name, error: text.split('\n')[0] ?? text });
    }
    load.push({
      bench: bench.name,
      before,
      after: loadavg()[0] ?? Number.NaN,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    });
  }
  return { results, load, failures };
}

function printRun(ran: Ran, line: HistoryLine, options: Options): void {
  const { machine: info } = line;
  process.stdout.write(`${renderResults(ran.results, { quick: options.quick })}\n`);
  process.stdout.write(
    `Machine: ${info.cpus} cores (${info.cpuModel}), ${info.memoryGiB} GiB, ${info.platform}, Node ${info.node}; commit ${line.commit.slice(0, 12)}${line.dirty ? ' (dirty tree)' : ''}; seed ${options.seed}${options.quick ? '; quick mode' : ''}\n`,
  );
  const total = ran.load.reduce((sum, l) => sum + l.seconds, 0);
  process.stdout.write(
    `Load average (1 min) before → after each bench, and its time: ${ran.load
      .map(
        (l) =>
          `${l.bench} ${l.before.toFixed(2)} → ${l.after.toFixed(2)} (${l.seconds.toFixed(0)} s)`,
      )
      .join('; ')}; ${total.toFixed(0)} s in all\n`,
  );
}

/** Everything printed, with each figure's note and any bench that failed: not committed. */
function writeLatest(ran: Ran, line: HistoryLine, options: Options): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(
    `${RESULTS_DIR}/latest.json`,
    `${JSON.stringify({ ...line, quick: options.quick, failures: ran.failures, notes: ran.results.map(({ bench, figure }) => ({ bench, name: figure.name, note: figure.note ?? null })) }, null, 2)}\n`,
  );
  process.stdout.write('Written to bench-results/latest.json\n');
}

/** Appends the run to the history when recordDecision says so, and rewrites the trend. */
async function record(line: HistoryLine, question: Parameters<typeof recordDecision>[0]) {
  const decision = recordDecision(question);
  if (!decision.record) {
    process.stdout.write(`Not recorded: ${decision.why}.\n`);
    return;
  }
  appendFileSync(HISTORY_PATH, serializeHistoryLine(line));
  // Counted again: the file may have changed during a run of several minutes.
  process.stdout.write(
    `Recorded in ${HISTORY_FILE} (${readHistory().length} runs): ${decision.why}.\n`,
  );
  const changed = await updateTrendDoc(root);
  process.stdout.write(
    `${changed ? 'Rewrote' : 'Kept'} the trend in ${TREND_DOC}: commit it with the history.\n`,
  );
}

async function main(): Promise<void> {
  const options = optionsOf(process.argv.slice(2));
  const missing = unregistered();
  if (missing.length > 0) {
    throw new BenchUsageError(`Register these in scripts/bench.ts: ${missing.join(', ')}`);
  }
  const unknown = options.wanted.filter((name) => !BENCHMARKS.some((bench) => bench.name === name));
  if (unknown.length > 0) throw new BenchUsageError(`No benchmark named ${unknown.join(', ')}`);
  const selected = BENCHMARKS.filter(
    (bench) => options.wanted.length === 0 || options.wanted.includes(bench.name),
  );
  // Read before running: a history that does not parse should stop us before a 10-minute run
  // that would compare with it or append to it.
  const history =
    options.compare || (!options.quick && options.record !== false) ? readHistory() : [];

  const info = machine();
  process.stderr.write(
    `bench: seed ${options.seed}${options.quick ? ', quick mode' : ''}; ${info.cpus} × ${info.cpuModel}, ${info.memoryGiB} GiB, Node ${info.node}\n`,
  );
  const gitBefore = gitState();
  const ran = await runBenches(selected, options);
  const git = gitAcross(gitBefore, gitState());
  const line = historyLine({
    date: new Date(),
    commit: git.commit,
    dirty: git.dirty,
    seed: options.seed,
    machine: info,
    load: ran.load,
    results: ran.results,
  });
  printRun(ran, line, options);
  writeLatest(ran, line, options);
  if (options.compare) {
    process.stdout.write(`${renderComparison(compareRuns(history.at(-1) ?? null, line))}\n`);
  }
  for (const failure of ran.failures) {
    process.stdout.write(`FAILED to run: ${failure.bench}: ${failure.error}\n`);
  }
  const outcome = { ...ran, strict: options.strict, quick: options.quick };
  process.stdout.write(`${runSummary(outcome)}\n`);
  await record(line, {
    asked: options.record,
    quick: options.quick,
    failures: ran.failures.length,
    everyBench: selected.length === BENCHMARKS.length,
    branch: git.branch,
    dirty: git.dirty,
  });
  process.exitCode = exitCodeFor(outcome);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof BenchUsageError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
