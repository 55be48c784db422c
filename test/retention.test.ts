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
import { generateShop, transactionRecord } from '#support/shop-history';
import { getInflowBySession } from '#main/store/inflows-repo';
import { upsertInflow } from '#main/engine/inflow-status';
import { insertSyncRun } from '#main/store/sync-runs-repo';
import { applyListingPage } from '#main/sync/listing-page';

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
    // Callbacks older than a year deleted too (their inflow holds them): the reports read the same.
    expect(pass.droppedCallbacks).toBeGreaterThan(50);
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
    // The rows' own age (deleting them) has its test below: here every row stays.
    const rules = { ...DEFAULT_RETENTION, callbackRowDays: 3650 };
    const pass = await runMaintenance(db, { rules, now: () => END_MS, batchRows: 50 });
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
      rules,
      now: () => END_MS,
      callbackCursor: pass.callbackCursor,
    });
    expect(again.reducedCallbacks + again.droppedAlerts + again.droppedSyncRuns).toBe(0);
  });

  it("clears the money rows' old detail no report reads, and only that, from where it left off", async () => {
    const db = shopDb(true);
    const cutoff = END_MS - 90 * DAY_MS;
    const MONEY = `SELECT (SELECT json_group_array(json_array(id, sale_id, at, to_state, cause))
        FROM sale_events) AS events,
      (SELECT json_group_array(json_array(id, reference, purpose, status, account_number,
        account_name, bank, amount_kobo, created_at)) FROM virtual_accounts) AS accounts,
      (SELECT json_group_array(json_array(id, session_id, external_reference, amount_kobo, status,
        occurred_at, source, last_source, sale_id, account_id, listed_at, listed_status))
        FROM inflows) AS inflows`;
    const kept = db.prepare(MONEY).get();
    const due = {
      events: count(
        db,
        `SELECT count(*) FROM sale_events WHERE at < ${cutoff}
        AND (detail IS NOT NULL OR from_state IS NOT NULL)`,
      ),
      accounts: count(
        db,
        `SELECT count(*) FROM virtual_accounts WHERE created_at < ${cutoff}
        AND purpose = 'sale' AND callback_url IS NOT NULL`,
      ),
      inflows: count(
        db,
        `SELECT count(*) FROM inflows WHERE first_seen_at < ${cutoff}
        AND provider_date IS NOT NULL AND occurred_at IS NOT NULL`,
      ),
    };
    expect(Math.min(due.events, due.accounts, due.inflows)).toBeGreaterThan(50);
    // The rows younger than the set age, with their detail.
    const youngWithDetail = () => ({
      details: count(
        db,
        `SELECT count(*) FROM sale_events WHERE at >= ${cutoff} AND detail IS NOT NULL`,
      ),
      urls: count(
        db,
        `SELECT count(*) FROM virtual_accounts WHERE created_at >= ${cutoff}
        AND callback_url IS NOT NULL`,
      ),
      dates: count(
        db,
        `SELECT count(*) FROM inflows WHERE first_seen_at >= ${cutoff}
        AND provider_date IS NOT NULL`,
      ),
    });
    const young = youngWithDetail();
    expect(Math.min(young.details, young.urls, young.dates)).toBeGreaterThan(10);

    const pagesBefore = count(db, 'PRAGMA page_count');
    const pass = await runMaintenance(db, {
      rules: DEFAULT_RETENTION,
      now: () => END_MS,
      batchRows: 40,
    });
    expect(pass.reducedDetail).toBe(due.events + due.accounts + due.inflows);
    expect(db.prepare(MONEY).get()).toEqual(kept);
    // The rewritten rows gave their bytes back (repack.ts), and every reference still holds.
    expect(count(db, 'PRAGMA page_count')).toBeLessThan(pagesBefore);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(
      count(db, `SELECT count(*) FROM sale_events WHERE at < ${cutoff} AND detail IS NOT NULL`),
    ).toBe(0);
    expect(
      count(
        db,
        `SELECT count(*) FROM virtual_accounts WHERE created_at < ${cutoff}
      AND purpose = 'sale' AND callback_url IS NOT NULL`,
      ),
    ).toBe(0);
    expect(
      count(
        db,
        `SELECT count(*) FROM virtual_accounts WHERE purpose = 'counter'
      AND callback_url IS NULL`,
      ),
    ).toBe(
      count(
        db,
        `SELECT count(*) FROM virtual_accounts
      WHERE purpose = 'counter' AND callback_url IS NULL`,
      ),
    );
    expect(
      count(
        db,
        `SELECT count(*) FROM inflows WHERE first_seen_at < ${cutoff}
      AND provider_date IS NOT NULL`,
      ),
    ).toBe(0);
    // The young rows keep all of it.
    expect(youngWithDetail()).toEqual(young);
    // The next pass starts after the rows done (migration 010's cursors) and finds nothing.
    // No stored cursor passes a row that was too young (it is reduced by a later pass).
    for (const [name, age] of [
      ['sale_events', 'at'],
      ['virtual_accounts', 'created_at'],
      ['inflows', 'first_seen_at'],
    ] as const) {
      const cursor = count(
        db,
        `SELECT COALESCE(MAX(last_id), 0) FROM retention_cursors WHERE name = '${name}'`,
      );
      expect(cursor).toBeLessThan(
        count(db, `SELECT MIN(id) FROM ${name} WHERE ${age} >= ${cutoff}`),
      );
    }
    expect(count(db, `SELECT count(*) FROM retention_cursors`)).toBeGreaterThan(0);
    const again = await runMaintenance(db, { rules: DEFAULT_RETENTION, now: () => END_MS });
    expect(again.reducedDetail).toBe(0);
    // A day later, that day's rows are due, and only they.
    const nextDay = await runMaintenance(db, {
      rules: DEFAULT_RETENTION,
      now: () => END_MS + DAY_MS,
    });
    expect(nextDay.reducedDetail).toBe(
      count(
        db,
        `SELECT count(*) FROM sale_events WHERE at >= ${cutoff} AND at < ${cutoff + DAY_MS}
        AND from_state IS NULL AND to_state <> 'creating'`,
      ) +
        count(
          db,
          `SELECT count(*) FROM virtual_accounts WHERE created_at >= ${cutoff}
          AND created_at < ${cutoff + DAY_MS} AND callback_url IS NULL AND purpose = 'sale'`,
        ) +
        count(
          db,
          `SELECT count(*) FROM inflows WHERE first_seen_at >= ${cutoff}
          AND first_seen_at < ${cutoff + DAY_MS} AND provider_date IS NULL`,
        ),
    );
  });

  it('a sync and a status check still work on pruned rows', async () => {
    const db = shopDb(true);
    await runMaintenance(db, { rules: DEFAULT_RETENTION, now: () => END_MS });
    const old = db
      .prepare(
        `SELECT session_id AS sessionId, external_reference AS reference, amount_kobo AS amountKobo,
           occurred_at AS occurredAt FROM inflows
         WHERE first_seen_at < ? AND status = 'success' AND provider_date IS NULL
           AND external_reference IS NOT NULL ORDER BY id LIMIT 2`,
      )
      .all(END_MS - 90 * DAY_MS) as {
      sessionId: string;
      reference: string;
      amountKobo: number;
      occurredAt: number;
    }[];
    const [listed, checked] = old;
    if (!listed || !checked) throw new Error('the generated shop has no pruned inflows');
    const record = (row: typeof listed, status: 'success' | 'failed') =>
      transactionRecord({
        sessionId: row.sessionId,
        externalReference: row.reference,
        amountKobo: row.amountKobo,
        status,
        rawStatus: status,
        date: '2025-10-01 10:00:00',
        dateMs: row.occurredAt,
      });
    // The listing shows an old payment again, now reversed: stored as a change, no conflict.
    const run = insertSyncRun(db, { mode: 'full', trigger: 'test', startOffset: 0 }, END_MS);
    const page = applyListingPage(
      db,
      { rows: [record(listed, 'failed')], observedAt: END_MS },
      {
        runId: run.id,
        nextOffset: 1,
        reportedCount: 1,
        collectedDelta: 1,
        pendingOffset: null,
        pendingSince: null,
        listingOrder: null,
      },
      END_MS,
    );
    expect(page.updated).toBe(1);
    expect(getInflowBySession(db, listed.sessionId)).toMatchObject({
      status: 'failed',
      occurredAt: listed.occurredAt,
      amountKobo: listed.amountKobo,
    });
    // A status check of another old payment: the same amount, so no conflict, status kept.
    const check = record(checked, 'success');
    const result = upsertInflow(
      db,
      { ...check, providerDate: check.date, occurredAt: check.dateMs },
      'poll',
      END_MS,
    );
    expect(result.amountConflict).toBe(false);
    expect(getInflowBySession(db, checked.sessionId)).toMatchObject({
      status: 'success',
      occurredAt: checked.occurredAt,
    });
  });

  it('deletes a year-old reduced callback only when its inflow holds it whole; a late duplicate is still one payment', async () => {
    const db = shopDb(true);
    const rowCutoff = END_MS - 365 * DAY_MS;
    const OLD_HELD = `SELECT c.id, c.hint_session_id AS sid, c.hint_reference AS ref,
        c.hint_amount_kobo AS amount, c.hint_status AS status, c.received_at AS receivedAt
      FROM callback_log c JOIN inflows i ON i.session_id = c.hint_session_id
      WHERE c.received_at < ${rowCutoff} AND c.processed_at IS NOT NULL AND i.sale_id IS NOT NULL
      ORDER BY c.id`;
    const old = db.prepare(OLD_HELD).all() as {
      id: number;
      sid: string;
      ref: string;
      amount: number;
      status: 'success' | 'failed';
      receivedAt: number;
    }[];
    const [wrongAmount, noSale, ...rest] = old;
    if (!wrongAmount || !noSale || rest.length < 20) throw new Error('too few old callbacks');
    // Two the inflow does not hold whole: another amount, and an inflow with no sale.
    db.prepare(
      'UPDATE callback_log SET hint_amount_kobo = hint_amount_kobo + 100 WHERE id = ?',
    ).run(wrongAmount.id);
    db.prepare('UPDATE inflows SET sale_id = NULL WHERE session_id = ?').run(noSale.sid);
    const unreadableOld = count(
      db,
      `SELECT count(*) FROM callback_log WHERE hint_session_id IS NULL AND received_at < ${rowCutoff}`,
    );
    expect(unreadableOld).toBeGreaterThan(0);
    const idsBefore = db.prepare('SELECT id FROM callback_log').pluck().all() as number[];

    const pass = await runMaintenance(db, {
      rules: DEFAULT_RETENTION,
      now: () => END_MS,
      batchRows: 40,
    });
    const idsAfter = new Set(db.prepare('SELECT id FROM callback_log').pluck().all() as number[]);
    const gone = idsBefore.filter((id) => !idsAfter.has(id));
    expect(gone.sort((a, b) => a - b)).toEqual(rest.map((row) => row.id));
    expect(pass.droppedCallbacks).toBe(rest.length);
    expect(idsAfter.has(wrongAmount.id) && idsAfter.has(noSale.id)).toBe(true);
    // Kept ones stay reduced; the unreadable ones stay; nothing younger than a year went.
    expect(
      count(
        db,
        `SELECT count(*) FROM callback_log WHERE hint_session_id IS NULL AND received_at < ${rowCutoff}`,
      ),
    ).toBe(unreadableOld);
    expect(Math.max(...rest.map((row) => row.receivedAt))).toBeLessThan(rowCutoff);
    // The space came back: the pages went to the file system.
    expect(count(db, 'PRAGMA freelist_count')).toBe(0);

    // A late duplicate of a deleted callback: its session id finds the inflow, one payment still.
    const late = rest[0] ?? wrongAmount;
    const inflow = getInflowBySession(db, late.sid);
    if (!inflow) throw new Error('the inflow of a deleted callback is gone');
    const record = transactionRecord({
      sessionId: late.sid,
      externalReference: late.ref,
      amountKobo: late.amount,
      status: late.status,
      rawStatus: late.status,
      date: '2025-10-01 10:00:00',
      dateMs: inflow.occurredAt ?? late.receivedAt,
    });
    const duplicate = upsertInflow(
      db,
      { ...record, providerDate: record.date, occurredAt: record.dateMs },
      'callback',
      END_MS,
    );
    expect(duplicate.inserted).toBe(false);
    expect(duplicate.amountConflict).toBe(false);
    expect(count(db, `SELECT count(*) FROM inflows WHERE session_id = '${late.sid}'`)).toBe(1);

    // A second pass starts after the first (its cursor) and deletes nothing more.
    const again = await runMaintenance(db, { rules: DEFAULT_RETENTION, now: () => END_MS });
    expect(again.droppedCallbacks).toBe(0);
  });

  it('the row age is never shorter than the body age', () => {
    expect(retentionRules(90, 60).callbackRowDays).toBe(90);
    expect(retentionRules(90).callbackRowDays).toBe(365);
    expect(retentionRules(90, 500).callbackRowDays).toBe(500);
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
