import { describe, expect, it } from 'vitest';
import {
  appendResolutionEntry,
  currentEntries,
  currentEntry,
  resolutionHistory,
  unreadableRowFirstSeenAt,
} from './exception-resolutions-repo';
import { createTestDb } from '#support/database';

const KEY = 'unmatched_inflow:session:100004000000000000000000000001';

describe('exception resolutions repository', () => {
  it('makes the newest entry current and keeps the ones it replaced', () => {
    const { db } = createTestDb();
    expect(currentEntry(db, KEY)).toBeNull();

    const first = appendResolutionEntry(db, {
      key: KEY,
      action: 'refunded',
      bankReference: 'FT2611220001',
      note: null,
      recordedBy: 'owner',
      recordedAt: 1_000,
    });
    expect(currentEntry(db, KEY)).toEqual(first);
    expect(first.replacedAt).toBeNull();

    const second = appendResolutionEntry(db, {
      key: KEY,
      action: 'other',
      bankReference: null,
      note: 'The customer came back for goods instead',
      recordedBy: 'Ada',
      recordedAt: 2_000,
    });
    expect(currentEntry(db, KEY)).toEqual(second);
    expect(resolutionHistory(db, KEY)).toEqual([{ ...first, replacedAt: 2_000 }, second]);
  });

  it('looks up many keys at once and only their current entries', () => {
    const { db } = createTestDb();
    const keys = Array.from({ length: 1200 }, (_, i) => `paid_late:sale:${i + 1}`);
    db.transaction(() => {
      keys.forEach((key, i) => {
        if (i % 3 === 0) return;
        appendResolutionEntry(db, {
          key,
          action: 'goods_given',
          bankReference: null,
          note: null,
          recordedBy: 'owner',
          recordedAt: i,
        });
        if (i % 3 === 2) {
          appendResolutionEntry(db, {
            key,
            action: 'reopened',
            bankReference: null,
            note: null,
            recordedBy: 'owner',
            recordedAt: i + 1,
          });
        }
      });
    })();
    const found = currentEntries(db, keys);
    expect(found.size).toBe(800);
    expect(found.get('paid_late:sale:1')).toBeUndefined();
    expect(found.get('paid_late:sale:2')?.action).toBe('goods_given');
    expect(found.get('paid_late:sale:3')?.action).toBe('reopened');
    expect(currentEntries(db, [])).toEqual(new Map());
    // A key with a quote or a comma is data, not SQL.
    expect(currentEntries(db, [`x'),('y`, 'a,b']).size).toBe(0);
  });

  it('rolls back the replacement when the new entry breaks a rule', () => {
    const { db } = createTestDb();
    const first = appendResolutionEntry(db, {
      key: KEY,
      action: 'credited',
      bankReference: null,
      note: null,
      recordedBy: 'owner',
      recordedAt: 1,
    });
    expect(() =>
      appendResolutionEntry(db, {
        key: KEY,
        action: 'refunded',
        bankReference: null,
        note: null,
        recordedBy: 'owner',
        recordedAt: 2,
      }),
    ).toThrow(/CHECK/);
    expect(resolutionHistory(db, KEY)).toEqual([first]);
  });

  it('tells whether an unreadable listing row was first seen at a time', () => {
    const { db } = createTestDb();
    const runId = Number(
      db
        .prepare(
          `INSERT INTO sync_runs (mode, trigger, status, started_at) VALUES ('full', 'user', 'complete', 0)`,
        )
        .run().lastInsertRowid,
    );
    db.prepare(
      `INSERT INTO unreadable_listing_rows (fingerprint, raw, problem, position, first_seen_at,
         last_seen_at, first_run_id, last_run_id) VALUES ('f', '{}', 'x: missing', 0, 500, 900, ?, ?)`,
    ).run(runId, runId);
    expect(unreadableRowFirstSeenAt(db, 500)).toBe(true);
    expect(unreadableRowFirstSeenAt(db, 900)).toBe(false);
  });
});
