import { describe, expect, it } from 'vitest';
import type { ExceptionFinding, ReportException } from '#shared/views';
import {
  csvExceptionIndex,
  exceptionKey,
  parseExceptionKey,
  resolutionCells,
} from './exception-resolutions';

function finding(overrides: Partial<ExceptionFinding>): ExceptionFinding {
  return {
    kind: 'paid_late',
    saleId: null,
    sessionId: null,
    amountKobo: null,
    at: null,
    message: 'm',
    action: 'a',
    ...overrides,
  };
}

function reported(overrides: Partial<ReportException>): ReportException {
  const base = finding(overrides);
  return { ...base, key: exceptionKey(base), resolution: null, ...overrides };
}

describe('exception keys', () => {
  it('name a sale case by its sale, a transfer by its session, a group by its first arrival', () => {
    expect(exceptionKey(finding({ kind: 'reversed', saleId: 7, sessionId: '123' }))).toBe(
      'reversed:sale:7',
    );
    expect(exceptionKey(finding({ kind: 'wrong_amount', saleId: 7, sessionId: '123' }))).toBe(
      'wrong_amount:session:123',
    );
    expect(exceptionKey(finding({ kind: 'unreadable_rows', at: 1_763_852_400_000 }))).toBe(
      'unreadable_rows:since:1763852400000',
    );
    // A sale case whose sale is unknown falls back to its payment, then to its time.
    expect(exceptionKey(finding({ kind: 'paid_late', sessionId: '55' }))).toBe(
      'paid_late:session:55',
    );
    expect(exceptionKey(finding({ kind: 'unmatched_inflow', saleId: 3 }))).toBe(
      'unmatched_inflow:sale:3',
    );
  });

  it('parse back, and refuse what this app never makes', () => {
    for (const sample of [
      finding({ kind: 'reversed', saleId: 7, sessionId: '123' }),
      finding({ kind: 'wrong_amount', sessionId: '100004000000000000000000000009' }),
      finding({ kind: 'unreadable_callbacks', at: 5 }),
    ]) {
      expect(parseExceptionKey(exceptionKey(sample))?.kind).toBe(sample.kind);
    }
    expect(parseExceptionKey('open_at_cutoff:sale:12')).toEqual({
      kind: 'open_at_cutoff',
      type: 'sale',
      saleId: 12,
    });
    for (const bad of [
      '',
      'paid_late',
      'paid_late:sale:',
      'paid_late:sale:0',
      'paid_late:sale:-1',
      'paid_late:sale:1.5',
      'paid_late:till:1',
      'made_up:sale:1',
      'constructor:sale:1',
      'paid_late:session:a:b',
      'paid_late:session:has space',
      'unreadable_rows:since:soon',
    ]) {
      expect(parseExceptionKey(bad), bad).toBeNull();
    }
  });
});

describe('the CSV cells of exceptions', () => {
  const late = reported({
    kind: 'paid_late',
    saleId: 4,
    sessionId: 'S4',
    resolution: {
      action: 'other',
      bankReference: null,
      note: 'Called the customer',
      resolvedBy: 'Ada',
      resolvedAt: Date.UTC(2026, 10, 22, 17, 30),
    },
  });
  const open = reported({ kind: 'unmatched_inflow', sessionId: 'S9' });
  const openSale = reported({ kind: 'open_at_cutoff', saleId: 4 });
  const group = reported({ kind: 'unreadable_rows', at: 1 });

  it('are empty without an exception, "Open" until resolved, and list two cases in order', () => {
    expect(resolutionCells([], 'Africa/Lagos', true)).toEqual([null, null, null, null, null, null]);
    expect(resolutionCells([open], 'Africa/Lagos', true)).toEqual([
      'No till of this shop made it',
      'Open',
      null,
      null,
      null,
      null,
    ]);
    expect(resolutionCells([late, open], 'Africa/Lagos', true)).toEqual([
      'Paid late; No till of this shop made it',
      'Other; Open',
      'Ada; ',
      '2026-11-22T18:30:00+01:00; ',
      null,
      'Called the customer; ',
    ]);
  });

  it('name a wrong amount in the one wording of the till and the report, as information', () => {
    const wrong = reported({ kind: 'wrong_amount', sessionId: 'S7', amountKobo: 190_000 });
    expect(resolutionCells([wrong], 'Africa/Lagos', true).slice(0, 2)).toEqual([
      'Wrong amount ₦1,900.00: not accepted',
      'For information',
    ]);
  });

  it('call a sale still waiting on a day not yet over "Still open now", not "at cut-off"', () => {
    expect(resolutionCells([openSale], 'Africa/Lagos', false)[0]).toBe('Still open now');
    expect(resolutionCells([openSale], 'Africa/Lagos', true)[0]).toBe('Still open at cut-off');
  });

  it('belong to the row of their payment, else of their sale; the rest get rows of their own', () => {
    const index = csvExceptionIndex([late, open, openSale, group]);
    expect(index.forRow('S4', 4)).toEqual([late, openSale]);
    expect(index.forRow('S9', null)).toEqual([open]);
    expect(index.forRow('S5', 5)).toEqual([]);
    expect(index.unclaimed()).toEqual([group]);
    expect(csvExceptionIndex([late, group]).unclaimed()).toEqual([late, group]);
  });
});
