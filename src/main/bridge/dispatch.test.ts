import { describe, expect, it, vi } from 'vitest';
import { channelNames, type Handlers } from '../../shared/bridge/contract';
import { dispatch } from './dispatch';

const info = {
  name: 'Transfer Till',
  version: '1.0.0',
  shell: 'browser',
  environment: 'sandbox',
} as const;

function handlersWith(getAppInfo: Handlers['getAppInfo']): Handlers {
  const unexpected = Object.fromEntries(
    channelNames.map((name) => [
      name,
      () => {
        throw new Error(`unexpected call to ${name}`);
      },
    ]),
  );
  return { ...unexpected, getAppInfo } as unknown as Handlers;
}

describe('dispatch', () => {
  it('runs the handler with validated input', async () => {
    const result = await dispatch(
      handlersWith(() => info),
      'getAppInfo',
      {},
      vi.fn(),
    );
    expect(result).toEqual({ ok: true, value: info });
  });

  it.each([
    ['an unknown channel', 'deleteEverything', {}, 'UNKNOWN_CHANNEL'],
    ['a prototype key', '__proto__', {}, 'UNKNOWN_CHANNEL'],
    ['a non-string channel', 42, {}, 'UNKNOWN_CHANNEL'],
    ['extra fields', 'getAppInfo', { admin: true }, 'INVALID_INPUT'],
    ['a wrong type', 'getAppInfo', 'hello', 'INVALID_INPUT'],
  ])('answers %s with a clear error', async (_label, channel, input, code) => {
    const handler = vi.fn(() => info);
    const result = await dispatch(handlersWith(handler), channel, input, vi.fn());
    expect(result).toMatchObject({ ok: false, error: { code } });
    expect(handler).not.toHaveBeenCalled();
  });

  it('passes on a coded error and hides an unexpected one', async () => {
    class PaymentError extends Error {
      readonly code = 'STATUS_PENDING';
    }
    const coded = await dispatch(
      handlersWith(() => {
        throw new PaymentError('The bank is still processing the transfer.');
      }),
      'getAppInfo',
      {},
      vi.fn(),
    );
    expect(coded).toEqual({
      ok: false,
      error: { code: 'STATUS_PENDING', message: 'The bank is still processing the transfer.' },
    });

    const onUnexpected = vi.fn();
    const hidden = await dispatch(
      handlersWith(() => {
        throw new TypeError('cannot read x of undefined at /src/main/secret.ts:12');
      }),
      'getAppInfo',
      {},
      onUnexpected,
    );
    expect(hidden).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(hidden)).not.toContain('secret.ts');
    expect(onUnexpected).toHaveBeenCalledOnce();
  });
});
