import { describe, expect, it } from 'vitest';
import type { ReportException } from '#shared/views';
import {
  ExceptionResolutionError,
  reopenException,
  resolveException,
  withResolutions,
} from '#main/reports/exception-resolutions';
import { buildZReport } from '#main/reports/z-report';
import { resolutionHistory } from '#main/store/exception-resolutions-repo';
import { createTestDb } from '#support/database';
import { EXCEPTION_DAY_RANGE, EXCEPTION_DAY_START, seedExceptionDay } from '#support/exception-day';

const NOW = EXCEPTION_DAY_START + 20 * 3_600_000;

function seeded() {
  const { db } = createTestDb();
  const day = seedExceptionDay(db);
  const report = (range = EXCEPTION_DAY_RANGE): readonly ReportException[] =>
    buildZReport(db, { ...range, now: NOW }).exceptions;
  return { db, day, report };
}

function refused(run: () => unknown): ExceptionResolutionError {
  try {
    run();
  } catch (error) {
    if (error instanceof ExceptionResolutionError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('exceptions of the Z-report', () => {
  it('carry a key naming their sale or payment, the same in every report that shows them', () => {
    const { day, report } = seeded();
    const oneDay = report();
    expect(new Map(oneDay.map((e) => [e.kind, e.key]))).toEqual(
      new Map([
        ['paid_late', `paid_late:sale:${day.paidLateSaleId}`],
        ['unmatched_inflow', `unmatched_inflow:session:${day.unmatchedSessionId}`],
        ['wrong_amount', `wrong_amount:session:${day.rejectedSessionId}`],
        ['open_at_cutoff', `open_at_cutoff:sale:${day.openSaleId}`],
      ]),
    );
    expect(oneDay.every((e) => e.resolution === null)).toBe(true);
    // A week that holds the day lists the same cases under the same keys.
    const week = report({ ...EXCEPTION_DAY_RANGE, fromDay: '2026-11-20', toDay: '2026-11-26' });
    expect(week.map((e) => e.key).sort()).toEqual(oneDay.map((e) => e.key).sort());
  });

  it('get their resolutions from withResolutions, whatever the findings carried before', () => {
    const { db, day, report } = seeded();
    const key = `open_at_cutoff:sale:${day.openSaleId}`;
    resolveException(db, { key, action: 'goods_given' }, 'owner', NOW);
    const stale = report().map((e) => ({ ...e, key: 'stale', resolution: null }));
    const annotated = withResolutions(db, stale);
    expect(annotated.map((e) => e.key)).toEqual(report().map((e) => e.key));
    expect(annotated.find((e) => e.key === key)?.resolution?.action).toBe('goods_given');
    expect(withResolutions(db, [])).toEqual([]);
  });
});

describe('resolving exceptions', () => {
  it('records what was done, who and when, and the report shows it', () => {
    const { db, day, report } = seeded();
    const key = `unmatched_inflow:session:${day.unmatchedSessionId}`;
    const view = resolveException(
      db,
      { key, action: 'refunded', bankReference: '  FT2611220001 ', note: '' },
      'Ada',
      NOW,
    );
    const resolution = {
      action: 'refunded',
      bankReference: 'FT2611220001',
      note: null,
      resolvedBy: 'Ada',
      resolvedAt: NOW,
    };
    expect(view).toEqual({ key, resolution });
    const shown = report();
    expect(shown.find((e) => e.key === key)?.resolution).toEqual(resolution);
    expect(shown.filter((e) => e.resolution !== null)).toHaveLength(1);
  });

  it('replaces a resolution with history kept, and reopens with a record', () => {
    const { db, day, report } = seeded();
    const key = `paid_late:sale:${day.paidLateSaleId}`;
    resolveException(db, { key, action: 'goods_given' }, 'Ada', NOW);
    // The same record twice (a double press) adds nothing: the first who and when stand.
    expect(
      resolveException(db, { key, action: 'goods_given', note: ' ' }, 'owner', NOW + 5).resolution,
    ).toMatchObject({ resolvedBy: 'Ada', resolvedAt: NOW });
    expect(resolutionHistory(db, key)).toHaveLength(1);

    resolveException(
      db,
      { key, action: 'other', note: 'Customer took a voucher' },
      'owner',
      NOW + 10,
    );
    expect(report().find((e) => e.key === key)?.resolution).toEqual({
      action: 'other',
      bankReference: null,
      note: 'Customer took a voucher',
      resolvedBy: 'owner',
      resolvedAt: NOW + 10,
    });

    expect(reopenException(db, key, 'owner', NOW + 20)).toEqual({ key, resolution: null });
    expect(report().find((e) => e.key === key)?.resolution).toBeNull();
    // Reopening an open case records nothing more.
    reopenException(db, key, 'owner', NOW + 30);
    expect(
      resolutionHistory(db, key).map((entry) => [entry.action, entry.recordedBy, entry.replacedAt]),
    ).toEqual([
      ['goods_given', 'Ada', NOW + 10],
      ['other', 'owner', NOW + 20],
      ['reopened', 'owner', null],
    ]);
  });

  it('refuses a refund without a bank reference and "other" without a note, in words', () => {
    const { db, day } = seeded();
    const key = `wrong_amount:session:${day.rejectedSessionId}`;
    for (const bankReference of [undefined, null, '', '   ']) {
      const error = refused(() =>
        resolveException(db, { key, action: 'refunded', bankReference }, 'owner', NOW),
      );
      expect(error.code).toBe('BANK_REFERENCE_REQUIRED');
      expect(error.field).toBe('bankReference');
      expect(error.message).toBe(
        'Enter the bank reference of the refund transfer (it is on the transfer receipt).',
      );
    }
    const error = refused(() =>
      resolveException(db, { key, action: 'other', note: ' \n' }, 'owner', NOW),
    );
    expect(error).toMatchObject({ code: 'NOTE_REQUIRED', field: 'note' });
    expect(resolutionHistory(db, key)).toEqual([]);
  });

  it('refuses a key that names no case of this till', () => {
    const { db, day } = seeded();
    for (const key of [
      'nonsense',
      'paid_late:sale:999999',
      `unmatched_inflow:session:${day.unmatchedSessionId}0`,
      'unreadable_rows:since:12345',
      'unreadable_callbacks:since:12345',
      'reversed:since:12345',
    ]) {
      const error = refused(() =>
        resolveException(db, { key, action: 'goods_given' }, 'owner', NOW),
      );
      expect(error, key).toMatchObject({
        code: 'UNKNOWN_EXCEPTION',
        field: 'key',
        message: 'This exception is not known to this till. Reload the report and try again.',
      });
      expect(refused(() => reopenException(db, key, 'owner', NOW)).code).toBe('UNKNOWN_EXCEPTION');
    }
  });
});
