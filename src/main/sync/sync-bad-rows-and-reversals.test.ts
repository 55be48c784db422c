import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listInflowStatusHistory, getInflowBySession } from '#main/store/inflows-repo';
import { listUnreadableRows } from '#main/store/unreadable-repo';
import { getSyncRunOrThrow } from '#main/store/sync-runs-repo';
import {
  createSyncUnderTest,
  newestFirstFetch,
  spoilingFetch,
  startSyncWorld,
  storedMatchesLedger,
  type SyncWorld,
} from '#support/sync-world';
import { buildZReport } from '#main/reports/z-report';

let world: SyncWorld;

beforeAll(async () => {
  world = await startSyncWorld(2);
  await world.transfers(230);
}, 60_000);
afterAll(async () => {
  await world.close();
});

/** Five defects, one row each, chosen by the row's place in the sandbox's ledger. */
const DEFECTS: readonly ((row: Record<string, unknown>) => Record<string, unknown>)[] = [
  ({ session_id: _dropped, ...rest }) => rest,
  (row) => ({ ...row, date: '2026-02-30 10:00:00' }),
  (row) => ({ ...row, amount: String(row['amount']) }),
  (row) => ({ ...row, session_id: 12345 }),
  ({ date: _dropped, ...rest }) => rest,
];

describe('a listing with rows the till cannot read', () => {
  it('completes with every readable row, keeps the others, and takes them in once readable', async () => {
    const ledger = await world.ledger();
    // Spread over several pages (50 rows a page), one on the last page.
    const spoilt = new Map(
      [7, 60, 61, 140, 228].map((at, i) => [ledger[at]?.session_id ?? '', DEFECTS[i]]),
    );
    let spoiling = true;
    const t = createSyncUnderTest(world, {
      fetch: spoilingFetch((row) => {
        const defect = spoiling ? spoilt.get(String(row['session_id'])) : undefined;
        return defect?.(row);
      }),
    });

    const first = await t.sync.run({ mode: 'full', trigger: 'user' });
    expect(first).toMatchObject({
      status: 'complete',
      error: null,
      collected: ledger.length,
      inserted: ledger.length - 5,
      unreadable: 5,
    });
    expect(t.inflowCount()).toBe(ledger.length - 5);
    const kept = listUnreadableRows(t.db, { open: true });
    expect(kept.map((row) => row.position)).toEqual([7, 60, 61, 140, 228]);
    expect(kept.map((row) => row.problem.split(':')[0])).toEqual([
      'session_id',
      'date',
      'amount',
      'session_id',
      'date',
    ]);
    for (const row of kept) {
      expect(row.firstRunId).toBe(first.id);
      expect(row.raw).toMatch(/^\{.*"external_reference":"SYNC-FLEX-\d"/);
      expect(row.raw).not.toContain(world.sandbox.secretKey);
    }
    // The next tail read starts at the first unreadable row, not at the end.
    expect(getSyncRunOrThrow(t.db, first.id).pendingOffset).toBe(7);

    const day = '2026-11-22';
    const report = () =>
      buildZReport(t.db, {
        fromDay: day,
        toDay: day,
        cutoffHour: 0,
        timeZone: 'Africa/Lagos',
        now: world.scheduler.now(),
      });
    const exception = report().exceptions.find((e) => e.kind === 'unreadable_rows');
    expect(exception?.message).toMatch(/^5 rows of the provider's transaction list could not/);
    expect(report().lastSync).toMatchObject({ id: first.id, unreadable: 5 });

    // Still unreadable: the same rows, counted again for the new run, not twice in the store.
    t.requested.length = 0;
    const again = await t.sync.run({ mode: 'incremental', trigger: 'schedule' });
    expect(again).toMatchObject({ status: 'complete', inserted: 0, unreadable: 5 });
    expect(t.requested[0]).toBe(2); // five rows before the first unreadable one
    expect(listUnreadableRows(t.db)).toHaveLength(5);

    // The provider serves them readable now: an incremental run takes them in and settles them.
    spoiling = false;
    const fixed = await t.sync.run({ mode: 'incremental', trigger: 'user' });
    expect(fixed).toMatchObject({
      status: 'complete',
      mode: 'incremental',
      inserted: 5,
      unreadable: 0,
    });
    expect(storedMatchesLedger(t.db, await world.ledger())).toEqual([]);
    expect(listUnreadableRows(t.db, { open: true })).toEqual([]);
    expect(listUnreadableRows(t.db).every((row) => row.resolvedRunId === fixed.id)).toBe(true);
    expect(report().exceptions.some((e) => e.kind === 'unreadable_rows')).toBe(false);
    expect(getSyncRunOrThrow(t.db, fixed.id).pendingOffset).toBeNull();
  });

  it('a head read of a newest-first listing resolves nothing, a full read does', async () => {
    const ledger = await world.ledger();
    const target = ledger[3]?.session_id; // among the oldest: at the end of a newest-first list
    let spoiling = true;
    const t = createSyncUnderTest(world, {
      fetch: spoilingFetch(
        (row) => (spoiling && row['session_id'] === target ? { ...row, status: 42 } : undefined),
        newestFirstFetch(world.sandbox),
      ),
    });
    await world.scheduler.advance(3_600_000); // the history is old when the first sync starts
    const first = await t.sync.run({ mode: 'full', trigger: 'user' });
    expect(first).toMatchObject({ status: 'complete', unreadable: 1 });
    expect(getSyncRunOrThrow(t.db, first.id).listingOrder).toBe('newest_first');
    expect(listUnreadableRows(t.db, { open: true })[0]?.problem).toBe('status: not text');

    spoiling = false;
    await world.scheduler.advance(3_600_000);
    t.requested.length = 0;
    const head = await t.sync.run({ mode: 'incremental', trigger: 'schedule' });
    expect(head).toMatchObject({ status: 'complete', inserted: 0 });
    expect(t.requested[0]).toBe(0);
    expect(t.requested.length).toBeLessThanOrEqual(3); // one page, plus read-ahead guesses
    // Offsets shift in a newest-first listing: a head read cannot say the row is gone.
    expect(listUnreadableRows(t.db, { open: true })).toHaveLength(1);

    const full = await t.sync.run({ mode: 'full', trigger: 'user' });
    expect(full).toMatchObject({ status: 'complete', unreadable: 0, inserted: 1 });
    expect(listUnreadableRows(t.db, { open: true })).toEqual([]);
  });
});

describe('status changes after the fact, through the listing', () => {
  it('takes a reversal in, keeps its history, and tells the engine what it was before', async () => {
    const ledger = await world.ledger();
    const target = ledger[100]?.session_id ?? '';
    let reversed = false;
    const t = createSyncUnderTest(world, {
      fetch: spoilingFetch((row) =>
        reversed && row['session_id'] === target ? { ...row, status: 'failed' } : undefined,
      ),
    });
    await t.sync.run({ mode: 'full', trigger: 'user' });
    expect(getInflowBySession(t.db, target)?.status).toBe('success');
    t.changes.length = 0;
    t.notified.length = 0;

    await world.scheduler.advance(5_000);
    reversed = true;
    const run = await t.sync.run({ mode: 'full', trigger: 'user' });
    expect(run).toMatchObject({ status: 'complete', updated: 1, inserted: 0 });
    const stored = getInflowBySession(t.db, target);
    expect(stored?.status).toBe('failed');
    expect(t.notified.map((tx) => tx.sessionId)).toEqual([target]);
    expect(t.changes).toEqual([
      {
        inserted: false,
        previousStatus: 'success',
        status: 'failed',
        amountConflict: false,
        observedAt: expect.any(Number) as unknown,
      },
    ]);
    // The page's request time, on the run's clock: not before the run started.
    expect(t.changes[0]?.observedAt).toBeGreaterThanOrEqual(run.startedAt);
    const history = listInflowStatusHistory(t.db, stored?.id ?? 0);
    expect(history).toMatchObject([
      { fromStatus: 'success', toStatus: 'failed', source: 'listing' },
    ]);

    // The provider settles it again: back to success, with the history of both changes.
    reversed = false;
    await world.scheduler.advance(5_000);
    await t.sync.run({ mode: 'full', trigger: 'user' });
    expect(getInflowBySession(t.db, target)?.status).toBe('success');
    expect(listInflowStatusHistory(t.db, stored?.id ?? 0).map((c) => c.toStatus)).toEqual([
      'failed',
      'success',
    ]);
  });
});
