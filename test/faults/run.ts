/**
 * The long form of the fault campaign (`npm run test:faults`): at least 1,000 randomised runs by
 * default. Flags: --runs N, --seed S, --run I (replay one run of a campaign), --concurrency C,
 * --sigkill-every K (every K-th run's till is a child process that is SIGKILLed; 0: none),
 * --trace (print every step with the real time it took; for replaying one run), --quiet (no
 * line per run, only failures and the summary).
 * Each run prints its seed, personality and time to paid; a failing run also its violations
 * and unplanned problems. Exits non-zero on any failing run, printing the seed and run to replay.
 * TILL_FAULT_LOG=debug (or info) makes a child till log more than warnings to its data dir's
 * logs/main.log, which a failing run keeps.
 */
import { parseArgs } from 'node:util';
import { runCampaign } from './campaign';
import { runFailed } from './run-report';
import { formatRun, formatSummary } from './summary';

const { values } = parseArgs({
  strict: true,
  options: {
    runs: { type: 'string' },
    seed: { type: 'string' },
    run: { type: 'string' },
    concurrency: { type: 'string' },
    'sigkill-every': { type: 'string' },
    trace: { type: 'boolean' },
    quiet: { type: 'boolean' },
  },
});

function numberFlag(name: keyof typeof values, fallback: number): number {
  const text = values[name];
  if (text === undefined || typeof text === 'boolean') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`--${name} must be a number, got ${text}`);
  return value;
}

const runs = numberFlag('runs', 1_000);
const seed = numberFlag('seed', Math.floor(Math.random() * 2 ** 31));
const only = values.run === undefined ? undefined : numberFlag('run', 0);
const concurrency = numberFlag('concurrency', 8);
const sigkillEvery = numberFlag('sigkill-every', 25);
const quiet = values.quiet ?? false;

console.log(
  `fault campaign: ${only === undefined ? `${runs} runs` : `run ${only}`}, seed ${seed}, concurrency ${concurrency}, SIGKILL in every ${sigkillEvery}th run`,
);
const started = Date.now();
const summary = await runCampaign({
  runs,
  seed,
  concurrency,
  sigkillEvery,
  ...(only === undefined ? {} : { only }),
  ...(values.trace ? { trace: (line: string) => console.log(line) } : {}),
  onRun(report, done) {
    const total = only === undefined ? runs : 1;
    if (!quiet || runFailed(report)) console.log(formatRun(report, seed));
    if (runFailed(report)) {
      for (const v of report.violations) console.log(`  ${v.phase} ${v.kind}: ${v.message}`);
      for (const p of report.unplanned)
        console.log(`  unplanned ${p.source}: ${p.message} | ${p.detail}`);
    }
    if (done % 50 === 0 || done === total) {
      const elapsed = (Date.now() - started) / 1000;
      console.log(`  ${done}/${total} runs, ${elapsed.toFixed(0)} s`);
    }
  },
});
console.log(formatSummary(summary));
process.exitCode = summary.failures.length > 0 || summary.errors.length > 0 ? 1 : 0;
