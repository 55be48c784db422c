/**
 * Z-report figures on a store seeded as a real shop: a year of 1,000 sales a day with their
 * one-off accounts and state changes, inflows (this till's, its standing accounts', the other
 * tills' through the merchant-wide listing, a stranger's now and then), logged callbacks, a sync
 * a day, alerts, reversals and resolved exceptions (bench/ten-year-seed.ts, the one-year store:
 * its last year is the ten-year store's). The report is the app's own: buildZReport as the
 * getZReport handler calls it, and headlineTotals, its first query.
 *
 * Baseline, in the same run: the same function on a copy of the same store without the indexes
 * each section's date range starts from (RANGE_INDEXES), so that every section reads the whole
 * history. The lookup indexes stay (a sale's events, an inflow's sale or reference): without them
 * the report's per-row lookups turn into scans of scans and one month's report takes hours, which
 * measures nothing the range indexes do. What is judged is what those indexes are for: a report
 * costs the days it covers, not the history. Seven repetitions of each after two warm-ups, the
 * two stores in a seeded random order in each round. Quick mode (CI): three after one, on the same
 * year (its store is seeded once for this bench, the start-up's and the ten-year shop's quick run).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildZReport, headlineTotals } from '#main/reports/z-report';
import { openDatabase, type Db } from '#main/store/database';
import { HEADLINE_SQL } from '#main/store/z-report-queries';
import { explain } from '#support/database';
import {
  repetitions,
  summarise,
  type BenchContext,
  type BenchFigure,
  type Spread,
} from './bench-figure';
import { describeOrders, interleave } from './interleave';
import { SHOP_ZONE, THIS_TILL_ID, ensureShopStore, shopRange } from './ten-year-seed';

const DAYS = 365;
const RUNS = 7;
const WARMUPS = 2;
const QUICK_WARMUPS = 1;
const REPORT_DAY = '2026-06-15';
const MONTH = ['2026-06-01', '2026-06-30'] as const;
/**
 * A report that walks the history lands near 1. A day is 1/365 of it: at most a twentieth of
 * the same report without the range indexes. A month is 1/12, but both stores do the same
 * per-row work for the month's payments (attributing each to a till); what the indexes save is
 * reading the other eleven months: at most half.
 */
const DAY_RATIO_MAX = 0.05;
const MONTH_RATIO_MAX = 0.5;
const DAY_TARGET_MS = 50;
const MONTH_TARGET_MS = 500;

/** The indexes a report's sections start their date range from (store/z-report-queries.ts). */
const RANGE_INDEXES = [
  'inflows_day',
  'inflows_success_attribution',
  'sales_paid',
  'sales_created',
  'callback_log_unreadable',
] as const;

/** A copy of `source` without RANGE_INDEXES; one that no longer exists fails the bench. */
function withoutRangeIndexes(source: string, target: string): Db {
  copyFileSync(source, target);
  const db = openDatabase({ path: target });
  for (const name of RANGE_INDEXES) db.exec(`DROP INDEX "${name}"`);
  return db;
}

interface Pair {
  readonly indexed: { median: number; spread: Spread };
  readonly bare: { median: number; spread: Spread };
  readonly orders: string[][];
}

interface Rounds {
  readonly runs: number;
  readonly warmups: number;
  readonly seed: number;
}

async function timePair(
  indexed: Db,
  bare: Db,
  fn: (db: Db) => unknown,
  { runs, warmups, seed }: Rounds,
): Promise<Pair> {
  const once = (db: Db) => () => {
    const started = performance.now();
    fn(db);
    return Promise.resolve(performance.now() - started);
  };
  for (let i = 0; i < warmups; i++) {
    fn(indexed);
    fn(bare);
  }
  const { results, orders } = await interleave(
    { indexed: once(indexed), 'no-range-index': once(bare) },
    runs,
    seed,
  );
  return {
    indexed: summarise(results.indexed),
    bare: summarise(results['no-range-index']),
    orders,
  };
}

function figure(
  name: string,
  pair: Pair,
  ratioMax: number,
  targetMs: number,
  note?: string,
): BenchFigure {
  return {
    name,
    unit: 'ms',
    value: pair.indexed.median,
    spread: pair.indexed.spread,
    baselineName: 'same report, same store without its date-range indexes',
    baseline: pair.bare.median,
    baselineSpread: pair.bare.spread,
    ratioTarget: { max: ratioMax },
    absoluteTarget: { text: `< ${targetMs} ms`, met: pair.indexed.median < targetMs },
    ...(note ? { note } : {}),
  };
}

export async function run(context: BenchContext): Promise<readonly BenchFigure[]> {
  const store = ensureShopStore(DAYS, (line) => process.stderr.write(`${line}\n`));
  const dir = mkdtempSync(join(tmpdir(), 'till-zreport-bench-'));
  const indexedPath = join(dir, 'indexed.sqlite');
  copyFileSync(store.path, indexedPath);
  const indexed = openDatabase({ path: indexedPath });
  const bare = withoutRangeIndexes(store.path, join(dir, 'no-index.sqlite'));
  try {
    const day = shopRange(REPORT_DAY, REPORT_DAY);
    const report = (fromDay: string, toDay: string, toMs: number) => (db: Db) =>
      buildZReport(db, {
        fromDay,
        toDay,
        timeZone: SHOP_ZONE,
        cutoffHour: 0,
        tillId: THIS_TILL_ID,
        now: toMs + 3_600_000,
      });
    const month = shopRange(MONTH[0], MONTH[1]);
    const rounds = {
      runs: repetitions(context, RUNS),
      warmups: context.quick ? QUICK_WARMUPS : WARMUPS,
    };
    const headline = await timePair(
      indexed,
      bare,
      (db) => headlineTotals(db, day.fromMs, day.toMs),
      { ...rounds, seed: context.seed },
    );
    const whole = await timePair(indexed, bare, report(REPORT_DAY, REPORT_DAY, day.toMs), {
      ...rounds,
      seed: context.seed + 1,
    });
    const monthly = await timePair(indexed, bare, report(MONTH[0], MONTH[1], month.toMs), {
      ...rounds,
      seed: context.seed + 2,
    });
    const totals = headlineTotals(indexed, day.fromMs, day.toMs);
    const rowsInDay = totals.success.count + totals.failed.count + totals.pending.count;
    const plan = explain(indexed, HEADLINE_SQL, day.fromMs, day.toMs).join('; ');
    const counts = indexed
      .prepare(
        `SELECT (SELECT COUNT(*) FROM sales) AS sales, (SELECT COUNT(*) FROM sale_events) AS events,
           (SELECT COUNT(*) FROM inflows) AS inflows, (SELECT COUNT(*) FROM alerts) AS alerts`,
      )
      .get() as Record<string, number>;
    const size = `${(counts['sales'] ?? 0).toLocaleString('en')} sales, ${(counts['events'] ?? 0).toLocaleString('en')} sale events, ${(counts['inflows'] ?? 0).toLocaleString('en')} inflows, ${(counts['alerts'] ?? 0).toLocaleString('en')} alerts`;
    return [
      figure(
        'Z-report headline (counts and sums by status), 1 day',
        headline,
        DAY_RATIO_MAX,
        DAY_TARGET_MS,
        `${rowsInDay} inflows on ${REPORT_DAY} among ${size} (a year of a shop, ${store.firstDay} to ${store.lastDay}: this till's sales, its two standing accounts' and two other tills' payments from the listing; ${
          store.seedMs > 0
            ? `seeded this run in ${(store.seedMs / 1000).toFixed(0)} s`
            : 'seed reused from the temp dir'
        }); median of ${rounds.runs} after ${rounds.warmups} warm-ups; plan: ${plan}; order per round (seed ${context.seed}): ${describeOrders(headline.orders)}`,
      ),
      figure('whole Z-report (all sections), 1 day', whole, DAY_RATIO_MAX, DAY_TARGET_MS),
      figure(
        'whole Z-report (all sections), 1 month',
        monthly,
        MONTH_RATIO_MAX,
        MONTH_TARGET_MS,
        `${MONTH[0]} to ${MONTH[1]}`,
      ),
    ];
  } finally {
    indexed.close();
    bare.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
