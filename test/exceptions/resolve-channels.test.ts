import { describe, expect, it, vi } from 'vitest';
import { accessOf, type Caller, type ChannelName, type Handlers } from '#shared/bridge/contract';
import { EXCEPTION_DAY_RANGE, EXCEPTION_DAY_START, seedExceptionDay } from '#support/exception-day';
import { dispatch } from '#main/bridge/dispatch';
import { buildZReport } from '#main/reports/z-report';
import { createTestDb } from '#support/database';
import { exceptionHandlers, recordedByName } from '#main/reports/exception-handlers';

const NOW = EXCEPTION_DAY_START + 20 * 3_600_000;
const OWNER: Caller = { role: 'owner', name: null, sessionId: 's-owner', via: 'browser' };
const CASHIER: Caller = { role: 'cashier', name: 'Bola', sessionId: 's-bola', via: 'browser' };

function setUp() {
  const { db } = createTestDb();
  const day = seedExceptionDay(db);
  const handlers = exceptionHandlers({ db: () => db, now: () => NOW });
  const onUnexpected = vi.fn();
  // Only the exception channels are called here; the rest of the table is not needed.
  const table = handlers as unknown as Handlers;
  const call = (name: ChannelName, input: unknown, caller: Caller = OWNER) =>
    dispatch(table, name, input, onUnexpected, caller);
  const resolutionOf = (key: string) =>
    buildZReport(db, { ...EXCEPTION_DAY_RANGE, now: NOW }).exceptions.find((e) => e.key === key)
      ?.resolution;
  return { db, day, call, onUnexpected, resolutionOf };
}

describe('exception handlers', () => {
  it('are owner-only channels', () => {
    expect(accessOf('resolveException')).toBe('owner');
    expect(accessOf('reopenException')).toBe('owner');
  });

  it('record a resolution under the caller name, or "owner"', async () => {
    const { day, call, resolutionOf } = setUp();
    const key = `unmatched_inflow:session:${day.unmatchedSessionId}`;
    const result = await call('resolveException', {
      key,
      action: 'refunded',
      bankReference: 'FT2611220001',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        key,
        resolution: {
          action: 'refunded',
          bankReference: 'FT2611220001',
          note: null,
          resolvedBy: 'owner',
          resolvedAt: NOW,
        },
      },
    });
    expect(resolutionOf(key)?.resolvedBy).toBe('owner');

    const named: Caller = { ...OWNER, name: 'Mrs Adeyemi' };
    await call('resolveException', { key, action: 'credited', note: 'Store credit' }, named);
    expect(resolutionOf(key)).toMatchObject({ action: 'credited', resolvedBy: 'Mrs Adeyemi' });

    expect(await call('reopenException', { key })).toEqual({
      ok: true,
      value: { key, resolution: null },
    });
    expect(resolutionOf(key)).toBeNull();
    expect(recordedByName({ name: '  ' })).toBe('owner');
    expect(recordedByName({ name: 'x'.repeat(80) })).toHaveLength(60);
  });

  it('refuse a refund without a bank reference with a clear error', async () => {
    const { day, call, resolutionOf, onUnexpected } = setUp();
    const key = `paid_late:sale:${day.paidLateSaleId}`;
    expect(await call('resolveException', { key, action: 'refunded' })).toEqual({
      ok: false,
      error: {
        code: 'BANK_REFERENCE_REQUIRED',
        message: 'Enter the bank reference of the refund transfer (it is on the transfer receipt).',
        field: 'bankReference',
      },
    });
    expect(
      await call('resolveException', { key, action: 'refunded', bankReference: '   ' }),
    ).toMatchObject({ ok: false, error: { code: 'BANK_REFERENCE_REQUIRED' } });
    expect(await call('resolveException', { key, action: 'other', note: '' })).toMatchObject({
      ok: false,
      error: {
        code: 'NOTE_REQUIRED',
        field: 'note',
        message: 'Write a note saying what was done.',
      },
    });
    expect(resolutionOf(key)).toBeNull();
    expect(onUnexpected).not.toHaveBeenCalled();
  });

  it('refuse an unknown key, a made-up action and over-long text', async () => {
    const { day, call } = setUp();
    expect(
      await call('resolveException', { key: 'paid_late:sale:4242', action: 'goods_given' }),
    ).toEqual({
      ok: false,
      error: {
        code: 'UNKNOWN_EXCEPTION',
        message: 'This exception is not known to this till. Reload the report and try again.',
        field: 'key',
      },
    });
    expect(await call('reopenException', { key: 'open_at_cutoff:sale:4242' })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_EXCEPTION' },
    });
    const key = `open_at_cutoff:sale:${day.openSaleId}`;
    expect(await call('resolveException', { key, action: 'forgiven' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', field: 'action' },
    });
    expect(
      await call('resolveException', { key, action: 'other', note: 'n'.repeat(501) }),
    ).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'note' } });
    expect(
      await call('resolveException', { key, action: 'goods_given', extra: true }),
    ).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('are refused to a cashier before anything is recorded', async () => {
    const { day, call, resolutionOf } = setUp();
    const key = `open_at_cutoff:sale:${day.openSaleId}`;
    expect(await call('resolveException', { key, action: 'goods_given' }, CASHIER)).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(await call('reopenException', { key }, CASHIER)).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(resolutionOf(key)).toBeNull();
  });
});
