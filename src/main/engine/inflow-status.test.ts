import { describe, expect, it } from 'vitest';
import {
  getInflowBySession,
  listInflowStatusHistory,
  type InflowInput,
  type InflowStatus,
} from '#main/store/inflows-repo';
import { decideInflowStatus, upsertInflow } from './inflow-status';
import { createTestDb } from '#support/database';

const SESSION = '100004261122090512345678901299';

function inflow(status: InflowStatus, overrides: Partial<InflowInput> = {}): InflowInput {
  return {
    sessionId: SESSION,
    externalReference: 'TT-9',
    amountKobo: 150000,
    status,
    providerDate: '2026-11-22 09:05:12',
    occurredAt: Date.UTC(2026, 10, 22, 8, 5, 12),
    ...overrides,
  };
}

describe('decideInflowStatus', () => {
  const at = (status: InflowStatus, observedAt: number) => ({ status, observedAt });

  it('lets every newer provider observation change the status, in any direction', () => {
    const statuses: InflowStatus[] = ['success', 'failed', 'pending'];
    for (const from of statuses) {
      for (const to of statuses) {
        expect(decideInflowStatus(at(from, 10), at(to, 11)), `${from} -> ${to}`).toEqual({
          status: to,
          observedAt: 11,
          changed: from !== to,
        });
      }
    }
    expect(decideInflowStatus(at('unknown', 10), at('success', 11))).toMatchObject({
      status: 'success',
      changed: true,
    });
  });

  it('never lets an older observation change it, whatever it says', () => {
    for (const seen of ['success', 'failed', 'pending', 'unknown'] as const) {
      expect(decideInflowStatus(at('failed', 10), at(seen, 9))).toEqual({
        status: 'failed',
        observedAt: 10,
        changed: false,
      });
    }
  });

  it("never lets 'unknown' replace a known status, even when newer", () => {
    for (const stored of ['success', 'failed', 'pending'] as const) {
      expect(decideInflowStatus(at(stored, 10), at('unknown', 50))).toEqual({
        status: stored,
        observedAt: 10,
        changed: false,
      });
    }
  });

  it('moves the observation time on when a newer report repeats the status', () => {
    expect(decideInflowStatus(at('success', 10), at('success', 20))).toEqual({
      status: 'success',
      observedAt: 20,
      changed: false,
    });
    // Equal times: the later report wins (two sources in the same millisecond).
    expect(decideInflowStatus(at('pending', 10), at('success', 10)).changed).toBe(true);
  });
});

describe('upsertInflow: status changes after the fact', () => {
  it('takes failed -> success -> failed, keeps each change in the history, and says what it was', () => {
    const { db } = createTestDb();
    const first = upsertInflow(db, inflow('failed'), 'poll', 100);
    expect(first).toMatchObject({ inserted: true, statusChanged: true, previousStatus: null });
    expect(first.row.statusObservedAt).toBe(100);

    const settled = upsertInflow(db, inflow('success'), 'listing', 200, 190);
    expect(settled).toMatchObject({
      inserted: false,
      statusChanged: true,
      previousStatus: 'failed',
      amountConflict: false,
    });
    expect(settled.row).toMatchObject({ status: 'success', statusObservedAt: 190 });

    const reversed = upsertInflow(db, inflow('failed'), 'poll', 300);
    expect(reversed).toMatchObject({ statusChanged: true, previousStatus: 'success' });

    const history = listInflowStatusHistory(db, first.row.id);
    expect(history.map(({ id: _id, inflowId: _inflow, ...rest }) => rest)).toEqual([
      {
        recordedAt: 200,
        observedAt: 190,
        fromStatus: 'failed',
        toStatus: 'success',
        source: 'listing',
      },
      {
        recordedAt: 300,
        observedAt: 300,
        fromStatus: 'success',
        toStatus: 'failed',
        source: 'poll',
      },
    ]);
  });

  it('an older observation that arrives late changes nothing and leaves no history', () => {
    const { db } = createTestDb();
    upsertInflow(db, inflow('pending'), 'listing', 100);
    upsertInflow(db, inflow('success'), 'poll', 200);
    // A listing page fetched at 150 and written at 250 still says pending: it is older.
    const stale = upsertInflow(db, inflow('pending'), 'listing', 250, 150);
    expect(stale).toMatchObject({ statusChanged: false, previousStatus: 'success' });
    expect(getInflowBySession(db, SESSION)).toMatchObject({
      status: 'success',
      statusObservedAt: 200,
      lastSource: 'listing',
      updatedAt: 250,
    });
    const id = stale.row.id;
    expect(listInflowStatusHistory(db, id).map((c) => c.toStatus)).toEqual(['success']);
  });

  it("keeps a known status when the provider later says something it does not name ('unknown')", () => {
    const { db } = createTestDb();
    upsertInflow(db, inflow('success'), 'poll', 100);
    const odd = upsertInflow(db, inflow('unknown'), 'listing', 200);
    expect(odd).toMatchObject({ statusChanged: false, previousStatus: 'success' });
    expect(odd.row.status).toBe('success');
    expect(listInflowStatusHistory(db, odd.row.id)).toEqual([]);
  });

  it('defaults the observation to now, as callers from before this rule expect', () => {
    const { db } = createTestDb();
    upsertInflow(db, inflow('success'), 'poll', 100);
    const later = upsertInflow(db, inflow('pending'), 'listing', 200);
    expect(later).toMatchObject({ statusChanged: true, previousStatus: 'success' });
    expect(later.row).toMatchObject({ status: 'pending', statusObservedAt: 200 });
  });

  it('still never rewrites an amount, whatever the status does', () => {
    const { db } = createTestDb();
    upsertInflow(db, inflow('pending'), 'callback', 100);
    const result = upsertInflow(db, inflow('success', { amountKobo: 1 }), 'listing', 200);
    expect(result).toMatchObject({ statusChanged: true, amountConflict: true });
    expect(result.row.amountKobo).toBe(150000);
  });
});

describe('upsertInflow: one row per transfer', () => {
  it('keeps one row per session_id whatever reports it, counting the first source', () => {
    const { db } = createTestDb();
    expect(upsertInflow(db, inflow('success'), 'callback', 1).inserted).toBe(true);
    const again = upsertInflow(db, inflow('success'), 'poll', 2);
    expect(again).toMatchObject({ inserted: false, statusChanged: false, amountConflict: false });
    upsertInflow(db, inflow('success'), 'listing', 3);
    expect(db.prepare('SELECT COUNT(*) AS n FROM inflows').get()).toEqual({ n: 1 });
    expect(getInflowBySession(db, SESSION)).toMatchObject({
      source: 'callback',
      lastSource: 'listing',
      firstSeenAt: 1,
    });
  });

  it('moves pending to success, and never back on an older observation (the rule is tested above)', () => {
    const { db } = createTestDb();
    upsertInflow(db, inflow('pending'), 'listing', 1);
    expect(upsertInflow(db, inflow('success'), 'poll', 2).statusChanged).toBe(true);
    expect(upsertInflow(db, inflow('pending'), 'listing', 3, 1).statusChanged).toBe(false);
    expect(getInflowBySession(db, SESSION)?.status).toBe('success');
  });

  it('never rewrites an amount: a disagreeing report is flagged as a conflict', () => {
    const { db } = createTestDb();
    upsertInflow(db, inflow('success'), 'callback', 1);
    expect(
      upsertInflow(db, inflow('success', { amountKobo: 999 }), 'listing', 2).amountConflict,
    ).toBe(true);
    expect(getInflowBySession(db, SESSION)?.amountKobo).toBe(150000);
  });

  it('keeps a 30-digit session_id as text, digit for digit', () => {
    const { db } = createTestDb();
    const long = '999999999999999999999999999999';
    upsertInflow(db, inflow('success', { sessionId: long }), 'listing', 1);
    expect(getInflowBySession(db, long)?.sessionId).toBe(long);
  });
});
