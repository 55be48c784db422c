/**
 * Start-up figure: createCore to resolved (settings and secrets read, logger open, webhook
 * listener bound, the environment's database opened and migrated, the embedded sandbox provider
 * up, unfinished work handed to the background) on a data directory holding a year of a shop
 * (bench/ten-year-seed.ts, the one-year store: 365,000 sales with their events, inflows,
 * callbacks, alerts), as on any morning: a restart of a data directory that has started before.
 *
 * Baseline, in the same run: the restart of an equal data directory whose store is empty, also
 * started once before (a first start on a fresh folder also writes the settings, the keys and
 * the sandbox's database: that cost is not the store's). Seven rounds of the two restarts, each
 * round in a seeded random order, after one unmeasured start that warms the JIT (three rounds in
 * quick mode, on the same year). The ratio says what a year of history adds to a start; the first
 * starts are in the note.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tillDbPath } from '#main/config/data-files';
import { createCore } from '#main/core/create-core';
import { openDatabase } from '#main/store/database';
import { repetitions, summarise, type BenchContext, type BenchFigure } from './bench-figure';
import { describeOrders, interleave } from './interleave';
import { ensureShopStore } from './ten-year-seed';

const DAYS = 365;
const ROUNDS = 7;
const TARGET_MS = 300;
/**
 * Nothing at start may read the history: a year of it may add at most half again to a restart
 * (the migration check, the open sales and the unprocessed callbacks all come from indexes).
 */
const RATIO_MAX = 1.5;

async function timedStart(dataDir: string): Promise<number> {
  const started = performance.now();
  const core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-bench' });
  const ms = performance.now() - started;
  await core.close();
  return ms;
}

export async function run(context: BenchContext): Promise<readonly BenchFigure[]> {
  const store = ensureShopStore(DAYS, (line) => process.stderr.write(`${line}\n`));
  const dirs: string[] = [];
  const fresh = (name: string): string => {
    const dir = mkdtempSync(join(tmpdir(), `till-bench-startup-${name}-`));
    dirs.push(dir);
    return dir;
  };
  try {
    await timedStart(fresh('warmup'));

    const shopDir = fresh('shop');
    copyFileSync(store.path, tillDbPath(shopDir, 'sandbox'));
    const shopFirst = await timedStart(shopDir);
    const emptyDir = fresh('empty');
    const emptyFirst = await timedStart(emptyDir);

    const { results, orders } = await interleave(
      { shop: () => timedStart(shopDir), empty: () => timedStart(emptyDir) },
      repetitions(context, ROUNDS),
      context.seed,
    );

    const openStarted = performance.now();
    openDatabase({ path: tillDbPath(shopDir, 'sandbox') }).close();
    const openMs = performance.now() - openStarted;

    const shop = summarise(results.shop);
    const empty = summarise(results.empty);
    return [
      {
        name: 'core restart to ready, a year of a shop in the store',
        unit: 'ms',
        value: shop.median,
        spread: shop.spread,
        baselineName: 'core restart to ready, an equal empty store',
        baseline: empty.median,
        baselineSpread: empty.spread,
        ratioTarget: { max: RATIO_MAX },
        absoluteTarget: { text: `< ${TARGET_MS} ms`, met: shop.median < TARGET_MS },
        note: `createCore → resolved, sandbox profile (embedded sandbox started too), warm page cache; store of ${store.sales.toLocaleString('en')} sales (${store.firstDay} to ${store.lastDay}, ${
          store.seedMs > 0
            ? `seeded this run in ${(store.seedMs / 1000).toFixed(0)} s`
            : 'seed reused from the temp dir'
        }). First start on the copied store (writes settings, keys, sandbox db) ${shopFirst.toFixed(0)} ms; first start with an empty store ${emptyFirst.toFixed(0)} ms; opening + migration check of the year's store alone ${openMs.toFixed(1)} ms; order per round (seed ${context.seed}): ${describeOrders(orders)}`,
      },
    ];
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
