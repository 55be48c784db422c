/**
 * `npm run bench -- [name…] [--strict] [--record] [--compare] [--seed N]`: runs the benchmarks of
 * bench/*.bench.ts and prints one table, each figure (the median of at least 5 repetitions, with
 * its spread) beside a baseline measured in the same run and its ratio to it, with the machine
 * and its load. Writes bench-results/latest.json every time.
 *
 * --strict   exit 1 when a figure misses a judged target (a ratio target, or a bound).
 * --record   append this run to bench-results/history.jsonl (committed), with the git commit.
 * --compare  print the change of each figure and ratio from the last recorded run.
 * --seed N   the seed of the random orders (default: from the clock; printed either way).
 * --quick    CI's mode: fewer rounds and a smaller history, every bench on its real path.
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
  compareRuns,
  exitCodeFor,
  historyLine,
  missedFigures,
  parseHistory,
  renderComparison,
  renderResults,
  serializeHistoryLine,
  type BenchLoad,
  type BenchResult,
  type MachineInfo,
} from '../bench/bench-report';

/** Listed explicitly so each module is type-checked; the check below catches a forgotten one. */
const BENCHMARKS: readonly { readonly name: string; load(): Promise<BenchModule> }[] = [
  { name: 'webhook', load: () => import('../bench/webhook.bench') },
  { name: 'sync', load: () => import('../bench/sync.bench') },
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
const HISTORY_FILE = `${RESULTS_DIR}/history.jsonl`;

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
  readonly record: boolean;
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
  return {
    wanted: positionals,
    strict: values.strict ?? false,
    record: values.record ?? false,
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

/** The commit measured, and whether the tree differed from it (then the figures are of no commit). */
function gitState(): { commit: string; dirty: boolean } {
  try {
    const git = (...args: string[]): string =>
      execFileSync('git', args, {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    return {
      commit: git('rev-parse', 'HEAD').trim(),
      dirty: git('status', '--porcelain').trim() !== '',
    };
  } catch {
    return { commit: 'unknown', dirty: true };
  }
}

function readHistory() {
  return existsSync(HISTORY_FILE) ? parseHistory(readFileSync(HISTORY_FILE, 'utf8')) : [];
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
  // Read before running: a history that does not parse should stop us before a 10-minute run.
  const history = options.compare || options.record ? readHistory() : [];

  const info = machine();
  process.stderr.write(
    `bench: seed ${options.seed}; ${info.cpus} × ${info.cpuModel}, ${info.memoryGiB} GiB, Node ${info.node}\n`,
  );
  const results: BenchResult[] = [];
  /** The machine's 1-minute load average around each bench: other work shares these cores. */
  const load: BenchLoad[] = [];
  /** A bench that throws is reported and the others still run: one failure must not hide nine results. */
  const failures: { bench: string; error: string }[] = [];
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

  const git = gitState();
  const line = historyLine({
    date: new Date(),
    ...git,
    seed: options.seed,
    machine: info,
    load,
    results,
  });
  process.stdout.write(`${renderResults(results)}\n`);
  process.stdout.write(
    `Machine: ${info.cpus} cores (${info.cpuModel}), ${info.memoryGiB} GiB, ${info.platform}, Node ${info.node}; commit ${git.commit.slice(0, 12)}${git.dirty ? ' (dirty tree)' : ''}; seed ${options.seed}\n`,
  );
  process.stdout.write(
    `Load average (1 min) before → after each bench: ${load
      .map(
        (l) =>
          `${l.bench} ${l.before.toFixed(2)} → ${l.after.toFixed(2)} (${l.seconds.toFixed(0)} s)`,
      )
      .join('; ')}\n`,
  );
  const missed = missedFigures(results);
  process.stdout.write(
    missed.length === 0
      ? 'Every judged target (ratios and bounds) met.\n'
      : `Missed: ${missed.map(({ bench, figure }) => `${bench} / ${figure.name}`).join('; ')}\n`,
  );

  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(
    `${RESULTS_DIR}/latest.json`,
    `${JSON.stringify({ ...line, notes: results.map(({ bench, figure }) => ({ bench, name: figure.name, note: figure.note ?? null })) }, null, 2)}\n`,
  );
  process.stdout.write('Written to bench-results/latest.json\n');
  if (options.compare) {
    process.stdout.write(`${renderComparison(compareRuns(history.at(-1) ?? null, line))}\n`);
  }
  for (const failure of failures) {
    process.stdout.write(`FAILED to run: ${failure.bench}: ${failure.error}\n`);
  }
  if (options.record && failures.length > 0) {
    // A run with a bench missing would read as that bench's figures gone in the next --compare.
    process.stdout.write('Not recorded: a bench failed to run (see above).\n');
  } else if (options.record) {
    appendFileSync(HISTORY_FILE, serializeHistoryLine(line));
    // Counted again: the file may have changed during a run of several minutes.
    process.stdout.write(
      `Recorded in bench-results/history.jsonl (${readHistory().length} runs)\n`,
    );
  }
  process.exitCode = failures.length > 0 ? 1 : exitCodeFor(results, options.strict);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof BenchUsageError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
