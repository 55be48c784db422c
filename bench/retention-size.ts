/**
 * The shop's store on disk before and after retention (store/retention.ts, store/maintenance.ts):
 * `npx tsx bench/retention-size.ts [days]` seeds (or reuses) the generated history of `days`
 * business days (bench/ten-year-seed.ts), copies it, measures the file, its tables (dbstat) and
 * its daily backup, runs one maintenance pass at the end of the last day, the one-off change to
 * incremental vacuum, and measures again; then a second pass with a shorter row age
 * (SAMPLE_ROW_DAYS) measures a day whose held callbacks are deleted. Prints one JSON object; the
 * ten-year projection is whole days for the body age, reduced days up to the row age, and days
 * without their held callbacks past it, and says so.
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
/** The target: a ten-year store at most 60% of its size without retention. */
const SIZE_RATIO_MAX = 0.6;
/** The row age of the measuring second pass: the sample's oldest days past it lose callbacks. */
const SAMPLE_ROW_DAYS = 180;

function tableBytes(db: Db): Record<string, number> {
  const rows = db
    .prepare(
      `SELECT COALESCE(m.tbl_name, s.name) AS tbl, SUM(s.pgsize) AS bytes FROM dbstat s
         LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY tbl ORDER BY bytes DESC`,
    )
    .all() as { tbl: string; bytes: number }[];
  return Object.fromEntries(rows.map((row) => [row.tbl, row.bytes]));
}

/** Every table and index on its own (dbstat by name), with its rows' count for tables. */
function objectBytes(db: Db): Record<string, { bytes: number; type: string; table: string }> {
  const rows = db
    .prepare(
      `SELECT s.name, COALESCE(m.type, 'table') AS type, COALESCE(m.tbl_name, s.name) AS tbl,
         SUM(s.pgsize) AS bytes
       FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name
       GROUP BY s.name ORDER BY bytes DESC`,
    )
    .all() as { name: string; type: string; tbl: string; bytes: number }[];
  return Object.fromEntries(
    rows.map((row) => [row.name, { bytes: row.bytes, type: row.type, table: row.tbl }]),
  );
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
    const before = { bytes: storeBytes(path), tables: tableBytes(db), objects: objectBytes(db) };
    const backupBefore = await backupBytes(db, '2026-11-21');
    const { toMs } = shopRange(SHOP_LAST_DAY, SHOP_LAST_DAY);
    const started = performance.now();
    const pass = await runMaintenance(db, { rules: DEFAULT_RETENTION, now: () => toMs });
    const passMs = performance.now() - started;
    const vacuumStarted = performance.now();
    const converted = convertToIncrementalVacuum(db);
    const vacuumMs = performance.now() - vacuumStarted;
    db.pragma('wal_checkpoint(TRUNCATE)');
    const after = { bytes: storeBytes(path), tables: tableBytes(db), objects: objectBytes(db) };
    const backupAfter = await backupBytes(db, '2026-11-22');

    // The sample is one year: with the set row age (365 days) no callback is old enough to go.
    // A second pass with the row age at SAMPLE_ROW_DAYS deletes the held callbacks of the
    // sample's oldest days, which measures a day past the row age.
    const rowStarted = performance.now();
    const rowPass = await runMaintenance(db, {
      rules: { ...DEFAULT_RETENTION, callbackRowDays: SAMPLE_ROW_DAYS },
      now: () => toMs,
    });
    const rowPassMs = performance.now() - rowStarted;
    const afterRows = {
      bytes: storeBytes(path),
      tables: tableBytes(db),
      objects: objectBytes(db),
    };

    // Ten years: every row is kept, whole for the set age and reduced past it (callback bodies,
    // and the money tables' detail: retention-detail.ts). The sample's youngest `keptDays` are
    // the whole days; what the rest weighs after the pass is a reduced day's worth. Ten years
    // are `keptDays` whole days and the rest reduced; before, 3,650 whole days.
    // Past the row age (callbackRowDays) a day has also lost its held callbacks: measured by
    // the second pass, whose oldest (days - SAMPLE_ROW_DAYS) days lost them.
    const keptDays = DEFAULT_RETENTION.callbackBodyDays;
    const rowDays = DEFAULT_RETENTION.callbackRowDays;
    const perDayWhole = before.bytes / days;
    const perDayReduced =
      days > keptDays ? (after.bytes - perDayWhole * keptDays) / (days - keptDays) : perDayWhole;
    const perDayNoCallbacks =
      days > SAMPLE_ROW_DAYS
        ? (afterRows.bytes -
            perDayWhole * keptDays -
            perDayReduced * (SAMPLE_ROW_DAYS - keptDays)) /
          (days - SAMPLE_ROW_DAYS)
        : perDayReduced;
    const tenBefore = perDayWhole * TEN_YEARS;
    const tenAfter =
      perDayWhole * keptDays +
      perDayReduced * (rowDays - keptDays) +
      perDayNoCallbacks * (TEN_YEARS - rowDays);
    const tenRatio = tenAfter / tenBefore;
    // The daily backup copies the file: its time scales with the bytes (measured on the sample).
    const backupMsPerByte = {
      before: backupBefore.ms / backupBefore.bytes,
      after: backupAfter.ms / backupAfter.bytes,
    };
    process.stdout.write(
      `${JSON.stringify(
        {
          days,
          before: { ...before, backup: backupBefore },
          after: { ...after, backup: backupAfter },
          ratio: after.bytes / before.bytes,
          backupRatio: backupAfter.bytes / backupBefore.bytes,
          pass: { ...pass, ms: Math.round(passMs) },
          rowPass: {
            callbackRowDays: SAMPLE_ROW_DAYS,
            ...rowPass,
            ms: Math.round(rowPassMs),
            after: afterRows,
          },
          oneOffVacuum: { converted, ms: Math.round(vacuumMs) },
          tenYearProjection: {
            beforeBytes: Math.round(tenBefore),
            afterBytes: Math.round(tenAfter),
            ratio: tenRatio,
            judged: `after <= ${SIZE_RATIO_MAX}x before: ${tenRatio <= SIZE_RATIO_MAX ? 'pass' : 'MISSED'}`,
            perDayWholeBytes: Math.round(perDayWhole),
            perDayReducedBytes: Math.round(perDayReduced),
            perDayPastRowAgeBytes: Math.round(perDayNoCallbacks),
            backupMsBefore: Math.round(backupMsPerByte.before * tenBefore),
            backupMsAfter: Math.round(backupMsPerByte.after * tenAfter),
          },
        },
        null,
        2,
      )}\n`,
    );
    if (tenRatio > SIZE_RATIO_MAX) process.exitCode = 1;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
