import { describe, expect, it } from 'vitest';
import { upsertInflow } from '#main/engine/inflow-status';
import { getInflowBySession } from '#main/store/inflows-repo';
import {
  finishSyncRun,
  getSyncRunOrThrow,
  insertSyncRun,
  markStaleRunsInterrupted,
  type PageProgress,
} from '#main/store/sync-runs-repo';
import { createTestDb } from '#support/database';
import { transactionRecord } from '#support/shop-history';
import { applyListingPage } from './listing-page';

const tx = transactionRecord;

function progress(runId: number, overrides: Partial<PageProgress> = {}): PageProgress {
  return {
    runId,
    nextOffset: 1,
    reportedCount: 1,
    collectedDelta: 1,
    pendingOffset: null,
    pendingSince: null,
    listingOrder: null,
    ...overrides,
  };
}

describe('applyListingPage', () => {
  it('inserts, links, never lets a status regress, and records progress in the same transaction', () => {
    const { db } = createTestDb();
    db.prepare(
      `INSERT INTO sales (amount_kobo, state, reference, created_at, updated_at) VALUES (150000, 'awaiting_payment', 'TT-1', 0, 0)`,
    ).run();
    const run = insertSyncRun(db, { mode: 'full', trigger: 'test', startOffset: 0 }, 10);
    const settled = tx({ status: 'success' });
    // Known from a callback already: success.
    upsertInflow(
      db,
      { ...settled, providerDate: settled.date, occurredAt: settled.dateMs },
      'callback',
      5,
    );
    const pending = tx({ status: 'pending', externalReference: 'static-9' });
    const first = applyListingPage(
      db,
      { rows: [{ ...settled, status: 'pending', rawStatus: 'pending' }, pending], observedAt: 4 },
      progress(run.id, { nextOffset: 2, reportedCount: 2, collectedDelta: 2, pendingOffset: 0 }),
      20,
    );
    expect(first).toMatchObject({
      inserted: 1,
      updated: 0,
      allKnown: false,
      firstUnlistedIndex: 0,
    });
    // A success for a sale still waiting goes to the engine; here the listing said pending.
    expect(first.notify).toEqual([]);
    expect(getInflowBySession(db, settled.sessionId)).toMatchObject({
      status: 'success',
      saleId: 1,
      lastSource: 'listing',
    });
    expect(getSyncRunOrThrow(db, run.id)).toMatchObject({
      nextOffset: 2,
      reportedCount: 2,
      collected: 2,
      inserted: 1,
      pendingOffset: 0,
    });

    const second = applyListingPage(
      db,
      { rows: [settled, { ...pending, status: 'failed', rawStatus: 'failed' }] },
      progress(run.id, { nextOffset: null, reportedCount: 2, collectedDelta: 0 }),
      30,
    );
    expect(second).toMatchObject({
      inserted: 0,
      updated: 1,
      allKnown: false,
      firstUnlistedIndex: -1,
    });
    expect(second.notify.map((notice) => [notice.tx.sessionId, notice.change])).toEqual([
      [
        settled.sessionId,
        {
          inserted: false,
          previousStatus: 'success',
          status: 'success',
          amountConflict: false,
          observedAt: 30,
        },
      ],
      [
        pending.sessionId,
        {
          inserted: false,
          previousStatus: 'pending',
          status: 'failed',
          amountConflict: false,
          observedAt: 30,
        },
      ],
    ]);
    expect(getInflowBySession(db, pending.sessionId)?.status).toBe('failed');
    expect(getSyncRunOrThrow(db, run.id)).toMatchObject({ nextOffset: 2, updated: 1 });

    // A page fetched before the last one (read ahead) says pending: too old to count.
    const third = applyListingPage(
      db,
      { rows: [settled, { ...pending, status: 'pending', rawStatus: 'pending' }], observedAt: 25 },
      progress(run.id),
      40,
    );
    expect(getInflowBySession(db, pending.sessionId)?.status).toBe('failed');
    expect(third.allKnown).toBe(false); // the listing now says something else
    // Only the success for the sale still waiting; the stale pending changed nothing.
    expect(third.notify.map((notice) => notice.tx.sessionId)).toEqual([settled.sessionId]);
    const fourth = applyListingPage(db, { rows: [settled] }, progress(run.id), 50);
    expect(fourth.allKnown).toBe(true);
  });

  it('rolls the whole page back when one row cannot be written', () => {
    const { db } = createTestDb();
    const run = insertSyncRun(db, { mode: 'full', trigger: 'test', startOffset: 0 }, 10);
    const good = tx();
    const bad = tx({ amountKobo: 1.5 }); // STRICT: not an integer
    expect(() =>
      applyListingPage(db, { rows: [good, bad] }, progress(run.id, { nextOffset: 2 }), 20),
    ).toThrow();
    expect(getInflowBySession(db, good.sessionId)).toBeUndefined();
    expect(getSyncRunOrThrow(db, run.id).nextOffset).toBe(0);
  });

  it('marks runs left running by a dead process as interrupted', () => {
    const { db } = createTestDb();
    const dead = insertSyncRun(db, { mode: 'full', trigger: 'test', startOffset: 0 }, 10);
    const done = insertSyncRun(db, { mode: 'full', trigger: 'test', startOffset: 0 }, 10);
    finishSyncRun(db, done.id, { status: 'complete', error: null }, 11);
    expect(markStaleRunsInterrupted(db, 99)).toBe(1);
    expect(getSyncRunOrThrow(db, dead.id)).toMatchObject({ status: 'interrupted', finishedAt: 99 });
    expect(getSyncRunOrThrow(db, done.id).status).toBe('complete');
  });
});
