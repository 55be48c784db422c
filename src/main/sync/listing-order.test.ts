import { describe, expect, it } from 'vitest';
import type { SyncRunRow } from '#main/store/sync-runs-repo';
import {
  DEFAULT_SKEW_MARGIN_MS,
  TAIL_OVERLAP_ROWS,
  foldOrderEvidence,
  orderFromEvidence,
  pageEndsHeadRead,
  planIncremental,
} from './listing-order';

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
    pageLimit: 100,
    providerPageSize: null,
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
