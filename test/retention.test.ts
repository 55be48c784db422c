/**
 * Retention on a real SQLite file: every report figure is the same before and after a
 * maintenance pass (and the one-off change to incremental vacuum), and each rule keeps what it
 * says it keeps.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '#shared/settings-schema';
import { businessDay } from '#shared/provider-time';
import { reportHandlers } from '#main/core/report-handlers';
import type { Db } from '#main/store/database';
import {
  convertToIncrementalVacuum,
  hasIncrementalVacuum,
  runMaintenance,
} from '#main/store/maintenance';
import { migrations } from '#main/store/migrations';
import { DEFAULT_RETENTION, PRUNED_BODY_PREFIX, retentionRules } from '#main/store/retention';
import { createDbAtVersion, createTestDb } from '#support/database';
import { addRetentionHistory } from '#support/retention-history';
import { generateShop } from '#support/shop-history';

const DAY_MS = 86_400_000;
const END_MS = Date.UTC(2026, 10, 22, 20, 0, 0);
const START_MS = END_MS - 420 * DAY_MS;
const SETTINGS: Settings = {
  ...DEFAULT_SETTINGS,
  shop: { ...DEFAULT_SETTINGS.shop, tillId: 'till-1' },
};
const caller = { name: null, role: 'owner', via: 'browser' } as never;

let opened: Db | null = null;
afterEach(() => {
  opened?.close();
  opened = null;
});

function shopDb(useIncremental: boolean): Db {
  const db = useIncremental ? createTestDb().db : createDbAtVersion(migrations.length).db;
  db.pragma('journal_mode = WAL');
  opened = db;
  const shop = generateShop(db, { seed: 26, startMs: START_MS, endMs: END_MS, events: 1_500 });
  addRetentionHistory(db, shop, { seed: 26, startMs: START_MS, endMs: END_MS });
  return db;
}

/** Every figure the report channels give, for days across the history and a month range. */
async function everyReport(db: Db): Promise<string> {
  const reports = reportHandlers({ db: () => db, settings: () => SETTINGS, now: () => END_MS });
  const zone = { timeZone: SETTINGS.timeZone, cutoffHour: SETTINGS.dayCutoffHour };
  const days: string[] = [];
  for (let t = START_MS; t <= END_MS; t += 13 * DAY_MS) days.push(businessDay(t, zone));
  const out: unknown[] = [];
  for (const day of days) {
    out.push(await reports.getZReport({ day }, caller));
    out.push(await reports.getTrend({ day }, caller));
    out.push(await reports.listTransactions({ day, offset: 0, limit: 100 }, caller));
    out.push(await reports.exportCsv({ day }, caller));
  }
  // Ranges: the oldest 300 days (all reduced), and the last 120 (the set age inside it).
  for (const [from, to] of [
    [START_MS, START_MS + 300 * DAY_MS],
    [END_MS - 120 * DAY_MS, END_MS],
  ] as const) {
    const range = { fromDay: businessDay(from, zone), toDay: businessDay(to, zone) };
    out.push(await reports.getZReport(range, caller));
    out.push(await reports.exportCsv(range, caller));
  }
  return JSON.stringify(out);
}

function count(db: Db, sql: string): number {
  return db.prepare(sql).pluck().get() as number;
}

describe('retention keeps every report figure', () => {
  it('the same reports before and after pruning, the vacuum change and the space given back', async () => {
    const db = shopDb(false);
    expect(hasIncrementalVacuum(db)).toBe(false);
    const before = await everyReport(db);
    const pass = await runMaintenance(db, { rules: DEFAULT_RETENTION, now: () => END_MS });
    expect(pass.reducedCallbacks).toBeGreaterThan(500);
    expect(convertToIncrementalVacuum(db)).toBe(true);
    const after = await everyReport(db);
    expect(after).toBe(before);
  });

  it('each rule: reduced callbacks keep reconciliation, the rest waits or goes as stated', async () => {
    const db = shopDb(true);
    expect(hasIncrementalVacuum(db)).toBe(true);
    const bodies = new Map(
      (db.prepare('SELECT id, body FROM callback_log').all() as { id: number; body: string }[]).map(
        (row) => [row.id, row.body],
      ),
    );
    const KEPT = `SELECT id, received_at, method, content_type, parse_status, hint_reference,
      hint_session_id, hint_amount_kobo, hint_status, processed_at, outcome FROM callback_log`;
    const keptBefore = db.prepare(KEPT).all();
    const cutoff = END_MS - 90 * DAY_MS;
    const pagesBefore = count(db, 'PRAGMA page_count');
    const pass = await runMaintenance(db, {
      rules: DEFAULT_RETENTION,
      now: () => END_MS,
      batchRows: 50,
    });
    expect(pass.stoppedEarly).toBe(false);

    const rows = db
      .prepare(
        `SELECT id, received_at AS receivedAt, body, headers, remote_address AS remote,
           parse_status AS parseStatus, hint_reference AS ref, hint_session_id AS sid,
           processed_at AS processedAt, outcome FROM callback_log`,
      )
      .all() as {
      id: number;
      receivedAt: number;
      body: string;
      headers: string;
      remote: string | null;
      parseStatus: string;
      ref: string | null;
      sid: string | null;
      processedAt: number | null;
      outcome: string | null;
    }[];
    let reduced = 0;
    for (const row of rows) {
      const original = bodies.get(row.id) ?? '';
      const unreadable = row.parseStatus === 'malformed' || (row.ref === null && row.sid === null);
      const age = unreadable ? 365 : 90;
      const due = row.processedAt !== null && row.receivedAt < END_MS - age * DAY_MS;
      if (due) {
        reduced++;
        const digest = createHash('sha256').update(original, 'utf8').digest('hex');
        expect(row.body).toBe(`${PRUNED_BODY_PREFIX}${digest}`);
        expect(row.headers).toBe('{}');
        expect(row.remote).toBeNull();
        expect(row.outcome).not.toBeNull();
      } else {
        expect(row.body).toBe(original);
      }
    }
    expect(reduced).toBe(pass.reducedCallbacks);
    // What reconciliation needs stays on every row: time, reference, session id, verdict, ...
    expect(db.prepare(KEPT).all()).toEqual(keptBefore);
    expect(rows.some((row) => row.processedAt === null && row.receivedAt < cutoff)).toBe(true);

    expect(count(db, 'SELECT count(*) FROM alerts WHERE acknowledged_at IS NULL')).toBe(27);
    expect(
      count(db, `SELECT count(*) FROM alerts WHERE acknowledged_at < ${END_MS - 365 * DAY_MS}`),
    ).toBe(0);
    expect(pass.droppedAlerts).toBeGreaterThan(0);
    expect(
      count(db, 'SELECT count(*) FROM unreadable_listing_rows WHERE resolved_at IS NULL'),
    ).toBe(10);
    // Every run an unreadable row names is kept, and the newest hundred whatever their age.
    expect(
      count(
        db,
        `SELECT count(*) FROM unreadable_listing_rows u WHERE NOT EXISTS
           (SELECT 1 FROM sync_runs r WHERE r.id = u.first_run_id)`,
      ),
    ).toBe(0);
    expect(count(db, 'SELECT count(*) FROM sync_runs')).toBeGreaterThanOrEqual(100);
    expect(pass.droppedSyncRuns).toBeGreaterThan(0);

    // The freed pages went back to the file system, and the WAL was emptied.
    expect(count(db, 'PRAGMA freelist_count')).toBe(0);
    expect(pass.pagesReturned).toBeGreaterThan(0);
    expect(count(db, 'PRAGMA page_count')).toBeLessThan(pagesBefore);
    expect(pass.walPagesLeft).toBe(0);

    // A second pass finds nothing more to do, and starts where the first left off.
    const again = await runMaintenance(db, {
      rules: DEFAULT_RETENTION,
      now: () => END_MS,
      callbackCursor: pass.callbackCursor,
    });
    expect(again.reducedCallbacks + again.droppedAlerts + again.droppedSyncRuns).toBe(0);
  });

  it('a longer set age keeps more, and the other ages are never shorter than it', () => {
    expect(retentionRules(400)).toMatchObject({
      callbackBodyDays: 400,
      unreadableDays: 400,
      alertDays: 400,
      syncRunDays: 400,
    });
    expect(retentionRules(90)).toEqual(DEFAULT_RETENTION);
  });

  it('stops where it is when asked (a closing till, a full disk)', async () => {
    const db = shopDb(true);
    let batches = 0;
    const pass = await runMaintenance(db, {
      rules: DEFAULT_RETENTION,
      now: () => END_MS,
      batchRows: 20,
      stopped: () => batches++ >= 3,
    });
    expect(pass.stoppedEarly).toBe(true);
    expect(pass.reducedCallbacks).toBe(60);
  });

  it('a callback processed after a pass is reduced by the next pass, which starts at the cursor', async () => {
    const db = shopDb(true);
    const first = await runMaintenance(db, {
      rules: DEFAULT_RETENTION,
      now: () => END_MS,
      batchRows: 50,
    });
    const waiting = db
      .prepare(
        `SELECT id FROM callback_log WHERE processed_at IS NULL AND received_at < ? ORDER BY id`,
      )
      .pluck()
      .all(END_MS - 90 * DAY_MS) as number[];
    expect(waiting.length).toBeGreaterThan(1);
    // The cursor stops before the first callback that had to wait.
    expect(first.callbackCursor).toBeLessThan(waiting[0] ?? 0);
    db.prepare(`UPDATE callback_log SET processed_at = ?, outcome = 'confirmed' WHERE id = ?`).run(
      END_MS,
      waiting.at(-1),
    );
    const second = await runMaintenance(db, {
      rules: DEFAULT_RETENTION,
      now: () => END_MS,
      callbackCursor: first.callbackCursor,
    });
    expect(second.reducedCallbacks).toBe(1);
    const body = db
      .prepare('SELECT body FROM callback_log WHERE id = ?')
      .pluck()
      .get(waiting.at(-1)) as string;
    expect(body.startsWith(PRUNED_BODY_PREFIX)).toBe(true);
  });
});
