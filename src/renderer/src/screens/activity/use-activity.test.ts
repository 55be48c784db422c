import { describe, expect, it } from 'vitest';
import { alert, standingAccount, inflow, sale, T0 } from '#support/renderer/fixtures';
import { activityReducer, NO_ACTIVITY, type ActivityState } from './use-activity';

const loaded: ActivityState = activityReducer(NO_ACTIVITY, {
  type: 'loaded',
  activity: {
    sales: [sale({ id: 1 }), sale({ id: 2 })],
    inflows: [inflow({ sessionId: '1'.repeat(30) })],
    alerts: [alert({ id: 7 })],
    standingAccounts: [standingAccount({ id: 3 })],
  },
});

describe('activityReducer', () => {
  it('takes what main read, and says it was read', () => {
    expect(loaded.loaded).toBe(true);
    expect(loaded.error).toBeNull();
    expect(loaded.sales.map((s) => s.id)).toEqual([1, 2]);
    expect(loaded.counters.map((c) => c.id)).toEqual([3]);
  });

  it('keeps the error of a failed read, with nothing else changed', () => {
    const failed = activityReducer(NO_ACTIVITY, { type: 'load-failed', error: 'No answer' });
    expect(failed).toEqual({ ...NO_ACTIVITY, loaded: true, error: 'No answer' });
  });

  it('replaces a changed sale where it stands, and puts a new one first', () => {
    const changed = activityReducer(loaded, {
      type: 'sale',
      sale: sale({ id: 2, state: 'paid' }),
    });
    expect(changed.sales.map((s) => [s.id, s.state])).toEqual([
      [1, loaded.sales[0]?.state],
      [2, 'paid'],
    ]);
    const added = activityReducer(changed, { type: 'sale', sale: sale({ id: 9 }) });
    expect(added.sales.map((s) => s.id)).toEqual([9, 1, 2]);
  });

  it('keys money in by session id and counters by id', () => {
    const next = activityReducer(
      activityReducer(loaded, { type: 'inflow', inflow: inflow({ sessionId: '2'.repeat(30) }) }),
      { type: 'counter', counter: standingAccount({ id: 3, bank: 'Other' }) },
    );
    expect(next.inflows.map((i) => i.sessionId)).toEqual(['2'.repeat(30), '1'.repeat(30)]);
    expect(next.counters).toHaveLength(1);
    expect(next.counters[0]?.bank).toBe('Other');
  });

  it('marks only the acknowledged alert, at the time given', () => {
    const next = activityReducer(
      activityReducer(loaded, { type: 'alert', alert: alert({ id: 8 }) }),
      { type: 'acknowledged', alertId: 7, at: T0 },
    );
    expect(next.alerts.map((a) => [a.id, a.acknowledgedAt])).toEqual([
      [8, null],
      [7, T0],
    ]);
  });
});
