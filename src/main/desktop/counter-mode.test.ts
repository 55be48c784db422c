import { describe, expect, it } from 'vitest';
import {
  argvWithoutCounter,
  COUNTER_MODE_FILE,
  counterModeFileText,
  counterModeFrom,
  CounterModeError,
  pairingCompleted,
  type CounterModeErrorCode,
} from './counter-mode';

const FP = 'b2'.repeat(32);
const OTHER_FP = 'c3'.repeat(32);
const LINK = `https://192.168.1.20:7443/#/pair&code=Q2xhc3NpYy1jb2RlLTEyOA&fp=${FP}`;
const SAVED = counterModeFileText({
  hubOrigin: 'https://192.168.1.30:7443',
  fingerprint: OTHER_FP,
});
const APP = ['/opt/Transfer Till/transfer-till'];

function errorCode(run: () => unknown): CounterModeErrorCode | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof CounterModeError) return error.code;
    throw error;
  }
}

describe('counterModeFrom', () => {
  it('is a normal till without the flag and without a saved file', () => {
    expect(counterModeFrom(APP, null)).toBeNull();
    expect(counterModeFrom([...APP, '--data-dir', '/tmp/x'], null)).toBeNull();
  });

  it('pairs with the link given after --counter, opening the link itself', () => {
    expect(counterModeFrom([...APP, '--counter', LINK], null)).toEqual({
      hubOrigin: 'https://192.168.1.20:7443',
      fingerprint: FP,
      startUrl: LINK,
      pairing: true,
    });
    expect(counterModeFrom([...APP, `--counter=${LINK}`], null)?.hubOrigin).toBe(
      'https://192.168.1.20:7443',
    );
  });

  it('reopens the saved hub at its address, pinned to the saved fingerprint', () => {
    expect(counterModeFrom(APP, SAVED)).toEqual({
      hubOrigin: 'https://192.168.1.30:7443',
      fingerprint: OTHER_FP,
      startUrl: 'https://192.168.1.30:7443/',
      pairing: false,
    });
  });

  it('lets a link on the command line win over the saved hub (moving or re-pairing)', () => {
    const mode = counterModeFrom([...APP, '--counter', LINK], SAVED);
    expect(mode?.hubOrigin).toBe('https://192.168.1.20:7443');
    expect(mode?.fingerprint).toBe(FP);
    expect(mode?.pairing).toBe(true);
  });

  it('refuses a bad link with its reason, even when a saved hub exists', () => {
    expect(
      errorCode(() => counterModeFrom([...APP, '--counter', LINK.replace('https', 'http')], SAVED)),
    ).toBe('PAIRING_LINK_NOT_HTTPS');
    expect(
      errorCode(() => counterModeFrom([...APP, '--counter', LINK.replace(/&fp=.*/, '')], null)),
    ).toBe('PAIRING_LINK_NO_FINGERPRINT');
  });

  it('refuses --counter without a link rather than starting a till', () => {
    expect(errorCode(() => counterModeFrom([...APP, '--counter'], null))).toBe(
      'COUNTER_FLAG_WITHOUT_LINK',
    );
    expect(errorCode(() => counterModeFrom([...APP, '--counter', '--data-dir', 'x'], SAVED))).toBe(
      'COUNTER_FLAG_WITHOUT_LINK',
    );
    expect(errorCode(() => counterModeFrom([...APP, '--counter='], null))).toBe(
      'COUNTER_FLAG_WITHOUT_LINK',
    );
  });

  it.each([
    ['not JSON', '{"hubOrigin":'],
    ['a missing fingerprint', JSON.stringify({ hubOrigin: 'https://192.168.1.30:7443' })],
    [
      'a short fingerprint',
      JSON.stringify({ hubOrigin: 'https://192.168.1.30:7443', fingerprint: 'ab' }),
    ],
    ['an http hub', JSON.stringify({ hubOrigin: 'http://192.168.1.30:7443', fingerprint: FP })],
    ['a DNS name', JSON.stringify({ hubOrigin: 'https://hub.example.com', fingerprint: FP })],
    [
      'a path after the origin',
      JSON.stringify({ hubOrigin: 'https://192.168.1.30:7443/x', fingerprint: FP }),
    ],
    [
      'a fragment after the origin',
      JSON.stringify({ hubOrigin: 'https://192.168.1.30:7443/#/pair', fingerprint: FP }),
    ],
  ])('calls a saved file with %s damaged, never a normal till', (_label, text) => {
    expect(errorCode(() => counterModeFrom(APP, text))).toBe('COUNTER_MODE_FILE_DAMAGED');
  });

  it('names the file in the damaged message', () => {
    expect(() => counterModeFrom(APP, 'x')).toThrow(COUNTER_MODE_FILE);
  });
});

describe('counterModeFileText', () => {
  it('keeps the origin and the fingerprint only, and reads back the same', () => {
    const mode = counterModeFrom([...APP, '--counter', LINK], null);
    if (!mode) throw new Error('expected counter mode');
    const text = counterModeFileText(mode);
    expect(JSON.parse(text)).toEqual({ hubOrigin: 'https://192.168.1.20:7443', fingerprint: FP });
    expect(text).not.toContain('code');
    expect(counterModeFrom(APP, text)).toMatchObject({
      hubOrigin: mode.hubOrigin,
      fingerprint: FP,
    });
  });
});

describe('argvWithoutCounter', () => {
  it('drops --counter and its link, keeping every other argument', () => {
    expect(argvWithoutCounter([...APP, '--counter', LINK, '--data-dir', 'd'])).toEqual([
      ...APP,
      '--data-dir',
      'd',
    ]);
    expect(argvWithoutCounter(['.', `--counter=${LINK}`])).toEqual(['.']);
    expect(argvWithoutCounter(['.', '--counter', '--verbose'])).toEqual(['.', '--verbose']);
  });
});

describe('pairingCompleted', () => {
  const hub = 'https://192.168.1.20:7443';
  it('is true for the hub answering 200 to POST /api/pair', () => {
    expect(pairingCompleted({ url: `${hub}/api/pair`, method: 'POST', statusCode: 200 }, hub)).toBe(
      true,
    );
  });
  it.each([
    ['a refused code', { url: `${hub}/api/pair`, method: 'POST', statusCode: 410 }],
    ['another path', { url: `${hub}/api/call/createSale`, method: 'POST', statusCode: 200 }],
    ['a GET', { url: `${hub}/api/pair`, method: 'GET', statusCode: 200 }],
    [
      'another origin',
      { url: 'https://192.168.1.21:7443/api/pair', method: 'POST', statusCode: 200 },
    ],
    [
      'another port',
      { url: 'https://192.168.1.20:7444/api/pair', method: 'POST', statusCode: 200 },
    ],
    ['a broken url', { url: 'not a url', method: 'POST', statusCode: 200 }],
  ])('is false for %s', (_label, request) => {
    expect(pairingCompleted(request, hub)).toBe(false);
  });
});
