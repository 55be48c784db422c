/**
 * The shop's store on disk before and after retention (store/retention.ts, store/maintenance.ts):
 * `npx tsx bench/retention-size.ts [days]` seeds (or reuses) the generated history of `days`
 * business days (bench/ten-year-seed.ts), copies it, measures the file, its tables (dbstat) and
 * its daily backup, runs one maintenance pass at the end of the last day, the one-off change to
 * incremental vacuum, and measures again. Prints one JSON object; the ten-year projection scales
 * each table by days (every table grows with days; reduced callbacks replace whole ones past the
 * set age), and says so.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dailyBackup } from '#main/store/backup';
import { openDatabase, type Db } from '#main/store/database';
import { convertToIncrementalVacuum, runMaintenance } from '#main/store/maintenance';
import { DEFAULT_RETENTION } from '#main/store/retention';
import { ensureShopStore, shopRange, SHOP_LAST_DAY, storeBytes } from './ten-year-seed';

const TEN_YEARS = 3_650;

function tableBytes(db: Db): Record<string, number> {
  const rows = db
    .prepare(
      `SELECT COALESCE(m.tbl_name, s.name) AS tbl, SUM(s.pgsize) AS bytes FROM dbstat s
         LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY tbl ORDER BY bytes DESC`,
    )
    .all() as { tbl: string; bytes: number }[];
  return Object.fromEntries(rows.map((row) => [row.tbl, row.bytes]));
}

async function backupBytes(db: Db, day: string): Promise<{ bytes: number; ms: number }> {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'till-ret-bak-'));
  try {
    const started = performance.now();
    const path = await dailyBackup(db, { dir, keep: 1, day });
    const ms = performance.now() - started;
    return { bytes: path ? statSync(path).size : 0, ms };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const days = Number(process.argv[2] ?? 120);
  const store = ensureShopStore(days, (line) => process.stderr.write(`${line}\n`));
  const dir = mkdtempSync(join(tmpdir(), 'till-retention-'));
  const path = join(dir, 'till.sqlite');
  copyFileSync(store.path, path);
  const db = openDatabase({ path });
  try {
    const before = { bytes: storeBytes(path), tables: tableBytes(db) };
    const backupBefore = await backupBytes(db, '2026-11-21');
    const { toMs } = shopRange(SHOP_LAST_DAY, SHOP_LAST_DAY);
    const started = performance.now();
    const pass = await runMaintenance(db, { rules: DEFAULT_RETENTION, now: () => toMs });
    const passMs = performance.now() - started;
    const vacuumStarted = performance.now();
    const converted = convertToIncrementalVacuum(db);
    const vacuumMs = performance.now() - vacuumStarted;
    db.pragma('wal_checkpoint(TRUNCATE)');
    const after = { bytes: storeBytes(path), tables: tableBytes(db) };
    const backupAfter = await backupBytes(db, '2026-11-22');

    // Ten years: every table scales with days; callback_log's reduced rows grow by the days past
    // the set age, its whole rows stay at the set age's worth.
    const keptDays = DEFAULT_RETENTION.callbackBodyDays;
    const cbBefore = before.tables['callback_log'] ?? 0;
    const cbAfter = after.tables['callback_log'] ?? 0;
    const perDayWhole = cbBefore / days;
    const perDayReduced =
      days > keptDays ? (cbAfter - perDayWhole * keptDays) / (days - keptDays) : 0;
    const restBefore = before.bytes - cbBefore;
    const restAfter = after.bytes - cbAfter;
    const tenBefore = (before.bytes / days) * TEN_YEARS;
    const tenAfter =
      (restAfter / days) * TEN_YEARS +
      perDayWhole * keptDays +
      perDayReduced * (TEN_YEARS - keptDays);
    process.stdout.write(
      `${JSON.stringify(
        {
          days,
          before: { ...before, backup: backupBefore },
          after: { ...after, backup: backupAfter },
          ratio: after.bytes / before.bytes,
          backupRatio: backupAfter.bytes / backupBefore.bytes,
          pass: { ...pass, ms: Math.round(passMs) },
          oneOffVacuum: { converted, ms: Math.round(vacuumMs) },
          restBefore,
          restAfter,
          tenYearProjection: {
            beforeBytes: Math.round(tenBefore),
            afterBytes: Math.round(tenAfter),
            ratio: tenAfter / tenBefore,
            perCallbackDayWholeBytes: Math.round(perDayWhole),
            perCallbackDayReducedBytes: Math.round(perDayReduced),
          },
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
