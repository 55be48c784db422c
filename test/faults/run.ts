/**
 * The long form of the fault campaign (`npm run test:faults`): at least 1,000 randomised runs by
 * default. Flags: --runs N, --seed S, --run I (replay one run of a campaign), --concurrency C,
 * --sigkill-every K (every K-th run's till is a child process that is SIGKILLed; 0: none),
 * --trace (print every step with the real time it took; for replaying one run).
 * Exits non-zero on any invariant violation, printing the seed and run to replay.
 */
import { formatSummary, runCampaign } from './campaign';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function numberFlag(name: string, fallback: number): number {
  const text = flag(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`--${name} must be a number, got ${text}`);
  return value;
}

const runs = numberFlag('runs', 1_000);
const seed = numberFlag('seed', Math.floor(Math.random() * 2 ** 31));
const only = flag('run') === undefined ? undefined : numberFlag('run', 0);
const concurrency = numberFlag('concurrency', 8);
const sigkillEvery = numberFlag('sigkill-every', 25);

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
  ...(process.argv.includes('--trace') ? { trace: (line: string) => console.log(line) } : {}),
  onRun(report, done) {
    const total = only === undefined ? runs : 1;
    if (report.violations.length > 0) {
      console.log(
        `run ${report.index} FAILED (seed ${seed}, replay with --seed ${seed} --run ${report.index}):`,
      );
      for (const v of report.violations) console.log(`  ${v.kind}: ${v.message}`);
    }
    if (done % 50 === 0 || done === total) {
      const elapsed = (Date.now() - started) / 1000;
      console.log(`  ${done}/${total} runs, ${elapsed.toFixed(0)} s`);
    }
  },
});
console.log(formatSummary(summary));
process.exitCode = summary.failures.length > 0 || summary.errors.length > 0 ? 1 : 0;
