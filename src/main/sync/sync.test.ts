import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSyncRunOrThrow, latestSyncRun } from '#main/store/sync-runs-repo';
import {
  createSyncUnderTest,
  newestFirstFetch,
  observingFetch,
  startSyncWorld,
  storedMatchesLedger,
  type SyncWorld,
} from '#support/sync-world';

let world: SyncWorld;

beforeAll(async () => {
  world = await startSyncWorld();
  await world.transfers(2_000);
}, 60_000);
afterAll(async () => {
  await world.close();
});

describe('transaction sync against the sandbox', () => {
  it('reads thousands of rows across pages while the count grows, each stored once', async () => {
    let grown = false;
    const t = createSyncUnderTest(world, {
      fetch: observingFetch(async (page) => {
        // Transfers land while the sync is paging: the count grows under it.
        if (page.offset >= 500 && !grown) {
          grown = true;
          await world.transfers(120);
        }
      }),
    });
    const before = (await world.ledger()).length;
    const run = await t.sync.run({ mode: 'full', trigger: 'user' });
    const ledger = await world.ledger();

    expect(ledger.length).toBe(before + 120);
    expect(run).toMatchObject({
      status: 'complete',
      mode: 'full',
      trigger: 'user',
      collected: ledger.length,
      inserted: ledger.length,
      updated: 0,
      reportedCount: ledger.length,
      error: null,
    });
    expect(storedMatchesLedger(t.db, ledger)).toEqual([]);
    expect(t.progress.length).toBeGreaterThan(40);
    const last = t.progress.at(-1);
    expect(last).toEqual({ runId: run.id, collected: ledger.length, count: ledger.length });
    const collected = t.progress.map((p) => p.collected);
    expect(collected).toEqual([...collected].sort((a, b) => a - b));
    expect(t.progress.some((p) => p.count === before)).toBe(true);
    expect(t.finished).toEqual([run]);
    expect(getSyncRunOrThrow(t.db, run.id).listingOrder).toBe('oldest_first');
    // Each page was asked for once (read-ahead guesses included): no page read twice.
    expect(new Set(t.requested).size).toBe(t.requested.length);
  });

  it('resumes a run that failed in the middle from its saved offset, without loss or double counting', async () => {
    let failing = false;
    const t = createSyncUnderTest(world, {
      fetch: observingFetch(async (page) => {
        if (page.offset >= 700 && !failing) {
          failing = true;
          await world.control('/faults', { error_rate: 1 });
        }
      }),
    });
    const failed = await t.sync.run({ mode: 'incremental', trigger: 'startup' });
    await world.control('/faults', undefined, 'DELETE');
    const saved = getSyncRunOrThrow(t.db, failed.id);

    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/provider/i);
    expect(saved.nextOffset).toBeGreaterThanOrEqual(650);
    expect(saved.nextOffset).toBeLessThanOrEqual(750);
    // Exactly the committed pages are stored: nothing after the saved offset, nothing lost before.
    expect(t.inflowCount()).toBe(saved.nextOffset);
    expect(failed.collected).toBe(saved.nextOffset);

    await world.transfers(30);
    t.requested.length = 0;
    const resumed = await t.sync.run({ mode: 'incremental', trigger: 'schedule' });
    const ledger = await world.ledger();
    expect(resumed).toMatchObject({
      id: failed.id,
      status: 'complete',
      collected: ledger.length,
      inserted: ledger.length,
      error: null,
    });
    expect(t.requested[0]).toBe(saved.nextOffset);
    expect(storedMatchesLedger(t.db, ledger)).toEqual([]);
  });

  it('cancels mid-run, runs one sync at a time, and carries on from the cancelled offset', async () => {
    const t = createSyncUnderTest(world, {
      fetch: observingFetch((page) => {
        if (page.offset === 400) t.sync.cancel();
      }),
      readAhead: 0,
    });
    const first = t.sync.run({ mode: 'full', trigger: 'user' });
    const second = t.sync.run({ mode: 'incremental', trigger: 'schedule' });
    expect(second).toBe(first);
    expect(t.sync.current()).toMatchObject({ status: 'running', mode: 'full' });
    const cancelled = await first;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.error).toMatch(/Cancelled/);
    expect(t.sync.current()).toBeNull();
    expect(t.sync.cancel()).toBe(false);
    expect(t.inflowCount()).toBe(400);
    expect(t.sync.lastRun()).toEqual(cancelled);

    const done = await t.sync.run({ mode: 'incremental', trigger: 'user' });
    expect(done).toMatchObject({ id: cancelled.id, status: 'complete' });
    expect(storedMatchesLedger(t.db, await world.ledger())).toEqual([]);
  });

  it('resumes a run the process died in (status still running) when the app starts again', async () => {
    const t = createSyncUnderTest(world, {
      // The process "dies" while reading offset 300: this request never answers.
      fetch: observingFetch((page) =>
        page.offset === 300 ? new Promise<void>(() => undefined) : undefined,
      ),
      readAhead: 0,
    });
    void t.sync.run({ mode: 'full', trigger: 'startup' });
    await waitUntil(() => t.inflowCount() === 300);
    const dead = latestSyncRun(t.db);
    expect(dead?.status).toBe('running');

    // A new process on the same database.
    const next = createSyncUnderTest(world, { db: t.db });
    expect(next.sync.lastRun()).toMatchObject({ id: dead?.id, status: 'interrupted' });
    const resumed = await next.sync.resumeInterrupted();
    expect(resumed).toMatchObject({ id: dead?.id, status: 'complete' });
    expect(next.requested[0]).toBe(300);
    const ledger = await world.ledger();
    expect(resumed?.collected).toBe(ledger.length);
    expect(storedMatchesLedger(t.db, ledger)).toEqual([]);
    expect(await next.sync.resumeInterrupted()).toBeNull();
  });

  it('incremental after full reads only the tail, from the oldest row that was pending', async () => {
    const t = createSyncUnderTest(world);
    const full = await t.sync.run({ mode: 'full', trigger: 'user' });
    expect(full.status).toBe('complete');

    // Nothing new: one page from five rows before the end.
    t.requested.length = 0;
    const quiet = await t.sync.run({ mode: 'incremental', trigger: 'schedule' });
    expect(quiet).toMatchObject({ status: 'complete', inserted: 0, collected: 5 });
    expect(t.requested).toEqual([full.collected - 5]);

    // Two transfers still pending at the sync, then ten more.
    await world.transfers(2, { pendingMs: 60_000 });
    const withPending = await t.sync.run({ mode: 'incremental', trigger: 'schedule' });
    expect(withPending).toMatchObject({ status: 'complete', inserted: 2 });
    const pendingOffset = getSyncRunOrThrow(t.db, withPending.id).pendingOffset;
    expect(pendingOffset).toBe(full.collected);
    await world.transfers(10);
    await world.scheduler.advance(60_000); // the pending ones settle

    t.requested.length = 0;
    const tail = await t.sync.run({ mode: 'incremental', trigger: 'schedule' });
    expect(tail).toMatchObject({
      status: 'complete',
      mode: 'incremental',
      inserted: 10,
      updated: 2,
    });
    expect(t.requested[0]).toBe(full.collected - 5);
    expect(t.requested.length).toBe(1);
    expect(getSyncRunOrThrow(t.db, tail.id).pendingOffset).toBeNull();
    expect(storedMatchesLedger(t.db, await world.ledger())).toEqual([]);
  });

  it('falls back to a full read when rows before the tail turn out unknown', async () => {
    const t = createSyncUnderTest(world);
    const full = await t.sync.run({ mode: 'full', trigger: 'user' });
    // As if the provider had slipped a row in before the covered count.
    t.db.prepare('DELETE FROM inflows WHERE id = (SELECT MAX(id) - 2 FROM inflows)').run();
    t.requested.length = 0;
    const run = await t.sync.run({ mode: 'incremental', trigger: 'schedule' });
    expect(run).toMatchObject({ status: 'complete', mode: 'full', inserted: 1 });
    expect(t.requested[0]).toBe(full.collected - 5);
    expect(t.requested).toContain(0);
    expect(run.collected).toBe(full.collected);
    expect(storedMatchesLedger(t.db, await world.ledger())).toEqual([]);
  });

  it('handles a newest-first listing: repeated rows across pages, then a head-only incremental', async () => {
    let served = 0;
    const unique = new Set<string>();
    let pushed = 0;
    const newestFirst = newestFirstFetch(world.sandbox, async (page) => {
      // New payments arrive at the front while paging: later pages repeat earlier rows.
      if (page.offset > 0 && page.offset % 300 === 0 && pushed < 3) {
        pushed += 1;
        await world.transfers(7);
      }
    });
    const t = createSyncUnderTest(world, {
      fetch: async (input, init) => {
        const response = await newestFirst(input, init);
        const copy = response.clone();
        const body = (await copy.json()) as { data?: { transactions?: { session_id: string }[] } };
        for (const tx of body.data?.transactions ?? []) {
          served += 1;
          unique.add(tx.session_id);
        }
        return response;
      },
    });
    // The history is an hour old when this sync starts.
    await world.scheduler.advance(3_600_000);
    const full = await t.sync.run({ mode: 'full', trigger: 'user' });
    expect(full.status).toBe('complete');
    expect(served).toBeGreaterThan(unique.size); // rows did repeat across pages
    expect(getSyncRunOrThrow(t.db, full.id).listingOrder).toBe('newest_first');
    // The 21 rows that arrived during the run went to the front, before the offsets already
    // read: the run read the front again until a page held no news.
    expect(storedMatchesLedger(t.db, await world.ledger())).toEqual([]);
    expect(full.collected).toBe((await world.ledger()).length);

    await world.scheduler.advance(3_600_000);
    await world.transfers(30);
    t.requested.length = 0;
    const head = await t.sync.run({ mode: 'incremental', trigger: 'schedule' });
    expect(head).toMatchObject({ status: 'complete', mode: 'incremental' });
    expect(head.inserted).toBe(30);
    // Page 0: the 30 new rows and 20 of those made during the last sync; page 1: one more of
    // those (too recent to trust) and 49 old ones; page 2: known and old, the run stops.
    expect(t.requested.slice(0, 3)).toEqual([0, 50, 100]);
    expect(t.requested.length).toBeLessThanOrEqual(5); // plus at most two read-ahead guesses
    expect(head.collected).toBe(150);
    expect(storedMatchesLedger(t.db, await world.ledger())).toEqual([]);
  });

  it('runs at start-up and then on its schedule, until stopped', async () => {
    const t = createSyncUnderTest(world);
    t.sync.startSchedule(15);
    await waitUntil(() => t.finished.length === 1);
    expect(t.finished[0]).toMatchObject({
      trigger: 'startup',
      status: 'complete',
      mode: 'incremental',
    });
    await world.scheduler.advance(14 * 60_000);
    expect(t.finished).toHaveLength(1);
    await world.scheduler.advance(60_000);
    await waitUntil(() => t.finished.length === 2);
    expect(t.finished[1]).toMatchObject({ trigger: 'schedule', status: 'complete' });
    t.sync.stopSchedule();
    await world.scheduler.advance(60 * 60_000);
    expect(t.finished).toHaveLength(2);
    expect(() => t.sync.startSchedule(0)).toThrow(/interval/);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
