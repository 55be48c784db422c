import { describe, expect, it } from 'vitest';
import { createTestDb, explain } from '#support/database';
import {
  LAST_COMPLETE_SYNC_RUN_SQL,
  LATEST_SYNC_RUN_SQL,
  MARK_STALE_RUNS_SQL,
  PAGE_PROGRESS_SQL,
  SYNC_RUN_SQL,
  finishSyncRun,
  insertSyncRun,
  lastCompleteSyncRun,
  latestSyncRun,
  recordPageProgress,
} from './sync-runs-repo';

describe('the sync runs', () => {
  it('finds the latest and the last complete run, and adds a page to its run', () => {
    const { db } = createTestDb();
    expect(latestSyncRun(db)).toBeUndefined();
    const complete = insertSyncRun(db, { mode: 'full', trigger: 'test', startOffset: 0 }, 1);
    finishSyncRun(db, complete.id, { status: 'complete', error: null }, 2);
    const failed = insertSyncRun(db, { mode: 'incremental', trigger: 'test', startOffset: 7 }, 3);
    finishSyncRun(db, failed.id, { status: 'failed', error: 'offline' }, 4);
    expect(latestSyncRun(db)?.id).toBe(failed.id);
    expect(lastCompleteSyncRun(db)?.id).toBe(complete.id);

    const progress = {
      runId: failed.id,
      nextOffset: null,
      reportedCount: 40,
      collectedDelta: 3,
      pendingOffset: 9,
      pendingSince: null,
      listingOrder: 'oldest_first' as const,
    };
    recordPageProgress(db, progress, { inserted: 2, updated: 1 });
    recordPageProgress(db, { ...progress, nextOffset: 20 }, { inserted: 1, updated: 0 });
    expect(latestSyncRun(db)).toMatchObject({
      nextOffset: 20,
      reportedCount: 40,
      collected: 6,
      inserted: 3,
      updated: 1,
      unreadable: 0,
      pendingOffset: 9,
      listingOrder: 'oldest_first',
    });
  });

  it('reads a run, the latest, the last complete and the stale ones through keys (EXPLAIN QUERY PLAN)', () => {
    const { db } = createTestDb();
    expect(explain(db, SYNC_RUN_SQL, 1).join('\n')).toMatch(
      /SEARCH sync_runs USING INTEGER PRIMARY KEY/,
    );
    expect(
      explain(db, PAGE_PROGRESS_SQL, 1, 1, 1, 0, 0, 0, null, null, null, null, null, 1).join('\n'),
    ).toMatch(/SEARCH sync_runs USING INTEGER PRIMARY KEY/);
    // The newest row by rowid, walked backwards: the first row is the answer, nothing is sorted.
    const latest = explain(db, LATEST_SYNC_RUN_SQL).join('\n');
    expect(latest).toBe('SCAN sync_runs');
    // Every report asks for the last complete run; every start-up for the runs left running.
    for (const sql of [LAST_COMPLETE_SYNC_RUN_SQL, MARK_STALE_RUNS_SQL]) {
      const plan = explain(db, sql, ...(sql === MARK_STALE_RUNS_SQL ? [1, null] : [])).join('\n');
      expect(plan, sql).toMatch(
        /SEARCH sync_runs USING (COVERING )?INDEX sync_runs_status \(status=\?\)/,
      );
      expect(plan, sql).not.toMatch(/SCAN|TEMP B-TREE/);
    }
  });
});
