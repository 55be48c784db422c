import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';
import { getSyncRunOrThrow, insertSyncRun, recordPageProgress } from './sync-runs-repo';
import { createDbAtVersion } from '#support/database';

describe('migration 009-provider-page-size', () => {
  it('keeps the runs made before it (no page size known) and records the real page size after', () => {
    const { db } = createDbAtVersion(8);
    db.prepare(
      `INSERT INTO sync_runs (mode, trigger, status, started_at, start_offset, next_offset,
         collected)
       VALUES ('full', 'user', 'complete', 5, 0, 40, 40)`,
    ).run();
    expect(migrate(db, migrations.slice(0, 9))).toBe(9);
    expect(schemaVersion(db)).toBe(9);
    expect(getSyncRunOrThrow(db, 1)).toMatchObject({
      collected: 40,
      nextOffset: 40,
      pageLimit: null,
      providerPageSize: null,
    });

    const run = insertSyncRun(
      db,
      { mode: 'full', trigger: 'user', startOffset: 0, pageLimit: 100 },
      9,
    );
    const page = {
      runId: run.id,
      nextOffset: 25,
      reportedCount: 60,
      collectedDelta: 25,
      pendingOffset: null,
      pendingSince: null,
      listingOrder: null,
    };
    const written = { inserted: 0, updated: 0 };
    recordPageProgress(db, page, written);
    expect(getSyncRunOrThrow(db, run.id).providerPageSize).toBeNull();
    recordPageProgress(db, { ...page, providerPageSize: 25 }, written);
    recordPageProgress(db, { ...page, providerPageSize: 20 }, written);
    recordPageProgress(db, { ...page, providerPageSize: null }, written);
    expect(getSyncRunOrThrow(db, run.id)).toMatchObject({ pageLimit: 100, providerPageSize: 25 });
  });
});
