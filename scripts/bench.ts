/**
 * `npx tsx scripts/bench.ts [name…] [--strict]`: runs the benchmarks of bench/*.bench.ts, prints
 * one table (each figure beside its same-run baseline) and writes bench-results/latest.json.
 * With --strict the exit code is 1 when a figure misses its target.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchFigure, BenchModule } from '../bench/bench-figure';

/** Listed explicitly so each module is type-checked; the check below catches a forgotten one. */
const BENCHMARKS: readonly { readonly name: string; load(): Promise<BenchModule> }[] = [
  { name: 'webhook', load: () => import('../bench/webhook.bench') },
  { name: 'sync', load: () => import('../bench/sync.bench') },
  { name: 'z-report', load: () => import('../bench/z-report.bench') },
  { name: 'callback-to-paid', load: () => import('../bench/callback-to-paid.bench') },
  { name: 'fallback-to-paid', load: () => import('../bench/fallback-to-paid.bench') },
  { name: 'create-to-screen', load: () => import('../bench/create-to-screen.bench') },
  { name: 'startup', load: () => import('../bench/startup.bench') },
  { name: 'memory', load: () => import('../bench/memory.bench') },
  { name: 'bundle', load: () => import('../bench/bundle.bench') },
];

const root = fileURLToPath(new URL('..', import.meta.url));

function unregistered(): readonly string[] {
  const known = new Set(BENCHMARKS.map((bench) => `${bench.name}.bench.ts`));
  return readdirSync(`${root}bench`).filter(
    (file) => file.endsWith('.bench.ts') && !known.has(file),
  );
}

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);
}

function table(rows: readonly (readonly string[])[]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map((row, index) => {
      const line = row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
      return index === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const strict = args.includes('--strict');
  const wanted = args.filter((arg) => !arg.startsWith('--'));
  const missing = unregistered();
  if (missing.length > 0) {
    throw new Error(`Register these in scripts/bench.ts: ${missing.join(', ')}`);
  }
  const selected = BENCHMARKS.filter((bench) => wanted.length === 0 || wanted.includes(bench.name));
  if (selected.length === 0) throw new Error(`No benchmark named ${wanted.join(', ')}`);

  const results: { bench: string; figure: BenchFigure }[] = [];
  /** The machine's 1-minute load average around each bench: other work shares these cores. */
  const load: { bench: string; before: number; after: number; seconds: number }[] = [];
  for (const bench of selected) {
    process.stderr.write(`bench ${bench.name}: running…\n`);
    const before = loadavg()[0] ?? Number.NaN;
    const started = performance.now();
    const module = await bench.load();
    for (const figure of await module.run()) results.push({ bench: bench.name, figure });
    load.push({
      bench: bench.name,
      before,
      after: loadavg()[0] ?? Number.NaN,
      seconds: (performance.now() - started) / 1000,
    });
  }

  const rows = [
    ['bench', 'figure', 'value', 'unit', 'baseline (same run)', 'baseline', 'target', 'result'],
    ...results.map(({ bench, figure }) => [
      bench,
      figure.name,
      format(figure.value),
      figure.unit,
      figure.baselineName,
      format(figure.baseline),
      figure.target ?? '',
      figure.pass === undefined ? '' : figure.pass ? 'pass' : 'MISSED',
    ]),
  ];
  process.stdout.write(`${table(rows)}\n`);
  for (const { bench, figure } of results) {
    if (figure.note) process.stdout.write(`  ${bench} / ${figure.name}: ${figure.note}\n`);
  }
  process.stdout.write(
    `Load average (1 min) before → after, on ${cpus().length} cores: ${load
      .map(
        (l) =>
          `${l.bench} ${l.before.toFixed(2)} → ${l.after.toFixed(2)} (${l.seconds.toFixed(0)} s)`,
      )
      .join('; ')}\n`,
  );

  mkdirSync(`${root}bench-results`, { recursive: true });
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${platform()} ${release()}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: totalmem() / 1024 ** 3,
    load,
    figures: results.map(({ bench, figure }) => ({ bench, ...figure })),
  };
  writeFileSync(`${root}bench-results/latest.json`, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write('Written to bench-results/latest.json\n');
  if (strict && results.some(({ figure }) => figure.pass === false)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
