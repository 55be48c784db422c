/**
 * The CSV-of-a-month figure of the ten-year-shop bench (csvMonth) on a smaller generated store:
 * `npx tsx bench/csv-month.ts [days]` (default 365) seeds or reuses that store
 * (bench/ten-year-seed.ts), exports October against writing the same rows from memory, and
 * prints the figure as JSON. Exit code 1 when the ratio is over its target (4x). For a change to
 * the export where generating the ten-year store (about 8 GB, minutes of seeding) is too much;
 * the judged figure is still the ten-year bench's.
 */
import { openDatabase } from '#main/store/database';
import { TEN_YEAR_PLAN, csvMonth } from './ten-year-shop.bench';
import { ensureShopStore } from './ten-year-seed';

async function main(): Promise<void> {
  const days = Number(process.argv[2] ?? 365);
  const store = ensureShopStore(days, (line) => process.stderr.write(`${line}\n`));
  const db = openDatabase({ path: store.path });
  try {
    const size = { days, name: `${days}-day` };
    const figure = await csvMonth(
      { history: db, recent: db },
      { ...TEN_YEAR_PLAN, history: size, recent: size },
      Number(process.env['BENCH_SEED'] ?? 1),
    );
    const ratio = figure.value / figure.baseline;
    const max = figure.ratioTarget?.max ?? Infinity;
    process.stdout.write(
      `${JSON.stringify({ ...figure, ratio, judged: ratio <= max ? 'pass' : 'MISSED' }, null, 2)}\n`,
    );
    if (ratio > max) process.exitCode = 1;
  } finally {
    db.close();
  }
}

await main();
