/**
 * Z-report figure: the headline query (counts and sums by status for one business day) over a
 * store holding 1,000,000 inflows, a year of a busy shop (about 2,740 a day), seeded in one bulk
 * transaction into a real store file. Median of 21 runs after 3 warm-ups. Beside it, in the same
 * run: the same aggregation over the whole table (no date range: what the index saves), and a
 * plain COUNT(*) in the note. Also shown: the same query over 31 days, and the whole report
 * (hours, tills, counter accounts, the five exception lists) for one day.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { businessDayRange } from '../src/shared/provider-time';
import { openDatabase, type Db } from '../src/main/store/database';
import { explain } from '../src/main/store/test-helpers';
import { seededRandom } from '../src/main/reports/test-support';
import { HEADLINE_SQL, buildZReport, headlineTotals } from '../src/main/reports/z-report';
import type { BenchFigure } from './bench-figure';

const TOTAL = 1_000_000;
const DAYS = 365;
const RUNS = 21;
const TARGET_MS = 50;
const ZONE = 'Africa/Lagos';
const FIRST_DAY_MS = Date.UTC(2025, 10, 22, 23); // 2025-11-23 00:00 Lagos
const REPORT_DAY = '2026-06-15';

function seed(db: Db): void {
  const random = seededRandom(2026);
  const now = FIRST_DAY_MS + DAYS * 86_400_000;
  db.transaction(() => {
    const counter = db
      .prepare(
        `INSERT INTO virtual_accounts (type, purpose, reference, status, created_at, updated_at)
         VALUES ('static-flex', 'counter', 'COUNTER-1', 'active', 0, 0)`,
      )
      .run();
    const insert = db.prepare(
      `INSERT INTO inflows (session_id, external_reference, amount_kobo, status, occurred_at,
         source, last_source, account_id, first_seen_at, updated_at, listed_at, listed_status)
       VALUES (?, ?, ?, ?, ?, 'listing', 'listing', ?, ?, ?, ?, ?)`,
    );
    for (let i = 0; i < TOTAL; i++) {
      const roll = random();
      const status = roll < 0.85 ? 'success' : roll < 0.95 ? 'failed' : 'pending';
      const isCounter = random() < 0.2;
      insert.run(
        `100004${String(i).padStart(24, '0')}`,
        isCounter ? 'COUNTER-1' : `TT-${i}`,
        100 * (1 + Math.floor(random() * 50_000)),
        status,
        FIRST_DAY_MS + Math.floor(random() * DAYS * 86_400_000),
        isCounter ? Number(counter.lastInsertRowid) : null,
        now,
        now,
        now,
        status,
      );
    }
  })();
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function time(fn: () => unknown): number {
  for (let i = 0; i < 3; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    fn();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/** Synchronous work (better-sqlite3), wrapped in the bench module's promise interface. */
export function run(): Promise<readonly BenchFigure[]> {
  return Promise.resolve().then(measure);
}

function measure(): readonly BenchFigure[] {
  const dir = mkdtempSync(join(tmpdir(), 'till-zreport-bench-'));
  const db = openDatabase({ path: join(dir, 'till.sqlite') });
  try {
    seed(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const [fromMs, toMs] = businessDayRange(REPORT_DAY, { timeZone: ZONE, cutoffHour: 0 });
    const [monthFrom] = businessDayRange('2026-06-01', { timeZone: ZONE, cutoffHour: 0 });
    const [, monthTo] = businessDayRange('2026-07-01', { timeZone: ZONE, cutoffHour: 0 });

    const countAll = time(() => db.prepare('SELECT COUNT(*) AS n FROM inflows').get());
    const wholeTable = time(() =>
      db
        .prepare(
          'SELECT status, COUNT(*) AS count, COALESCE(SUM(amount_kobo), 0) AS amountKobo FROM inflows GROUP BY status',
        )
        .all(),
    );
    const headline = time(() => headlineTotals(db, fromMs, toMs));
    const month = time(() => headlineTotals(db, monthFrom, monthTo));
    const whole = time(() =>
      buildZReport(db, {
        fromDay: REPORT_DAY,
        toDay: REPORT_DAY,
        timeZone: ZONE,
        cutoffHour: 0,
        now: toMs + 3_600_000,
      }),
    );
    const day = headlineTotals(db, fromMs, toMs);
    const rowsInDay = day.success.count + day.failed.count + day.pending.count;
    const plan = explain(db, HEADLINE_SQL, fromMs, toMs).join('; ');
    const usesIndex = /USING COVERING INDEX inflows_day/.test(plan);
    return [
      {
        name: `Z-report headline, 1 day (${rowsInDay} of ${TOTAL.toLocaleString('en')} inflows)`,
        value: headline,
        unit: 'ms',
        baselineName: 'same sums over all inflows',
        baseline: wholeTable,
        target: `< ${TARGET_MS} ms, index`,
        pass: headline < TARGET_MS && usesIndex,
        note: `median of ${RUNS}; COUNT(*) of all inflows ${countAll.toFixed(2)} ms; plan: ${plan}`,
      },
      {
        name: 'Z-report headline, 31 days',
        value: month,
        unit: 'ms',
        baselineName: 'same sums over all inflows',
        baseline: wholeTable,
        target: `< ${TARGET_MS} ms`,
        pass: month < TARGET_MS,
      },
      {
        name: 'whole Z-report (all sections), 1 day',
        value: whole,
        unit: 'ms',
        baselineName: 'same sums over all inflows',
        baseline: wholeTable,
        target: `< ${TARGET_MS} ms`,
        pass: whole < TARGET_MS,
      },
    ];
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
