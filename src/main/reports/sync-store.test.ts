import { describe, expect, it } from 'vitest';
import type { TransactionRecord } from '../provider/schemas';
import { getInflowBySession, upsertInflow } from '../store/inflows-repo';
import { createTestDb } from '../store/test-helpers';
import {
  DEFAULT_SKEW_MARGIN_MS,
  TAIL_OVERLAP_ROWS,
  foldOrderEvidence,
  orderFromEvidence,
  pageEndsHeadRead,
  planIncremental,
} from './listing-order';
import { createReadAhead } from './read-ahead';
import {
  applyListingPage,
  finishSyncRun,
  getSyncRunOrThrow,
  insertSyncRun,
  markStaleRunsInterrupted,
  type PageProgress,
  type SyncRunRow,
} from './sync-store';
import { nextSessionId } from './test-support';

function tx(overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    amountKobo: 150000,
    status: 'success',
    rawStatus: overrides.status ?? 'success',
    sessionId: nextSessionId(),
    externalReference: 'TT-1',
    date: '2026-11-22 09:05:00',
    dateMs: Date.UTC(2026, 10, 22, 8, 5),
    ...overrides,
  };
}

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

describe('the incremental rule', () => {
  const base: SyncRunRow = {
    id: 1,
    mode: 'full',
    trigger: 't',
    status: 'complete',
    startedAt: 1_000_000_000,
    finishedAt: 1_000_001_000,
    reportedCount: 1000,
    collected: 1000,
    inserted: 1000,
    updated: 0,
    nextOffset: 1000,
    unreadable: 0,
    error: null,
    startOffset: 0,
    listingOrder: 'oldest_first',
    pendingOffset: null,
    pendingSince: null,
  };

  it('reads the order from the dates of each page', () => {
    const at = (...ms: number[]) => ms.map((dateMs) => ({ dateMs }));
    expect(foldOrderEvidence('none', at(1, 1, 2, 3), null)).toBe('oldest_first');
    expect(foldOrderEvidence('none', at(3, 3, 1), null)).toBe('newest_first');
    expect(foldOrderEvidence('none', at(5, 5, 5), null)).toBe('none');
    expect(foldOrderEvidence('none', at(1, 3, 2), null)).toBe('mixed');
    expect(foldOrderEvidence('oldest_first', at(4), 9)).toBe('mixed');
    expect(orderFromEvidence('none', 'newest_first')).toBe('newest_first');
    expect(orderFromEvidence('mixed', 'oldest_first')).toBe('unknown');
  });

  it('plans full, tail or head from the last complete run', () => {
    expect(planIncremental(undefined).kind).toBe('full');
    expect(planIncremental({ ...base, listingOrder: 'unknown' }).kind).toBe('full');
    expect(planIncremental({ ...base, listingOrder: null }).kind).toBe('full');
    expect(planIncremental(base)).toMatchObject({
      kind: 'tail',
      startOffset: 1000 - TAIL_OVERLAP_ROWS,
      coveredCount: 1000,
    });
    expect(planIncremental({ ...base, pendingOffset: 40 })).toMatchObject({ startOffset: 35 });
    expect(planIncremental({ ...base, pendingOffset: 2 })).toMatchObject({ startOffset: 0 });
    expect(planIncremental({ ...base, listingOrder: 'newest_first' })).toEqual({
      kind: 'head',
      startOffset: 0,
      watermarkMs: base.startedAt - DEFAULT_SKEW_MARGIN_MS,
      order: 'newest_first',
    });
    expect(
      planIncremental({ ...base, listingOrder: 'newest_first', pendingSince: 5 }),
    ).toMatchObject({ watermarkMs: 5 });
    expect(pageEndsHeadRead([{ dateMs: 1 }, { dateMs: 2 }], true, 3)).toBe(true);
    expect(pageEndsHeadRead([{ dateMs: 1 }, { dateMs: 3 }], true, 3)).toBe(false);
    expect(pageEndsHeadRead([{ dateMs: 1 }], false, 3)).toBe(false);
    expect(pageEndsHeadRead([], true, 3)).toBe(false);
  });
});

describe('read-ahead', () => {
  it('asks for the next pages early, drops wrong guesses and aborts on close', async () => {
    const asked: number[] = [];
    const aborted: number[] = [];
    const client = {
      listTransactions(
        page: { offset: number; limit: number },
        options: { signal?: AbortSignal } = {},
      ) {
        asked.push(page.offset);
        options.signal?.addEventListener('abort', () => aborted.push(page.offset));
        // A server that clamps pages to 8 rows once past offset 20.
        const size = page.offset >= 20 ? 8 : page.limit;
        return Promise.resolve({
          count: 100,
          transactions: Array.from({ length: size }, () => tx()),
          unreadable: [],
        });
      },
    };
    const ahead = createReadAhead(client, { depth: 2 });
    await ahead.listTransactions({ offset: 0, limit: 10 });
    expect(asked).toEqual([0, 10, 20]);
    await ahead.listTransactions({ offset: 10, limit: 10 });
    expect(asked).toEqual([0, 10, 20, 30]);
    const short = await ahead.listTransactions({ offset: 20, limit: 10 });
    expect(short.transactions).toHaveLength(8);
    expect(aborted).toEqual([30, 40]); // guesses that assumed a full page
    await ahead.listTransactions({ offset: 28, limit: 10 });
    expect(asked.slice(-3)).toEqual([28, 38, 48]);
    expect(aborted).toEqual([30, 40, 38, 48]);

    const fresh = createReadAhead(client, { depth: 2 });
    await fresh.listTransactions({ offset: 0, limit: 10 });
    fresh.close();
    expect(aborted.slice(-2)).toEqual([10, 20]);
  });
});
