import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BridgeError } from '#shared/bridge/contract';
import { APP_ERROR_CODES, type AppErrorCode } from '#shared/errors';
import { CASHIER_WORDS, cashierMessage } from './errors';

/** An error as it arrives over HTTP: parsed JSON, whatever code a (newer) main sent. */
function fromTheWire(json: string): BridgeError {
  return JSON.parse(json) as BridgeError;
}

describe('the words table', () => {
  it('has words for every code of the union, and for nothing else', () => {
    // A code without words is a type error: the table is keyed by the whole union.
    expectTypeOf<keyof typeof CASHIER_WORDS>().toEqualTypeOf<AppErrorCode>();
    const { INTERNAL: _words, ...withoutOne } = CASHIER_WORDS;
    // @ts-expect-error a table missing a code (INTERNAL) is not a Record<AppErrorCode, string>
    const incomplete: Readonly<Record<AppErrorCode, string>> = withoutOne;
    expect(Object.keys(incomplete)).not.toContain('INTERNAL');
    expect(Object.keys(CASHIER_WORDS).sort()).toEqual([...APP_ERROR_CODES].sort());
  });

  it.each(APP_ERROR_CODES)('%s has shop words: a sentence, no code, no jargon', (code) => {
    const words: string = CASHIER_WORDS[code];
    expect(words.trim().length).toBeGreaterThan(10);
    expect(words).toMatch(/^[A-Z]/);
    expect(words).toMatch(/[.!]$/);
    // Nothing that looks like a code, a value from code, or a developer's word.
    expect(words).not.toMatch(/[A-Z]{2,}_[A-Z]|\b[A-Z]{5,}\b/);
    expect(words).not.toMatch(/\b(undefined|null|NaN|error code|exception|stack|HTTP)\b/i);
    expect(words, 'an HTTP status').not.toMatch(/(?<![\d,.])[1-5]\d\d(?![\d,.])/);
    expect(words).not.toMatch(/[{}<>`$\\]/);
  });

  it('shows fixed words for a code whose message is for a developer, whatever main said', () => {
    expect(cashierMessage({ code: 'INTERNAL', message: 'TypeError at secret.ts:12' })).toBe(
      CASHIER_WORDS.INTERNAL,
    );
    expect(cashierMessage({ code: 'DATA_DIR', message: '--data-dir needs a folder' })).toBe(
      CASHIER_WORDS.DATA_DIR,
    );
  });
});

describe('cashierMessage', () => {
  it.each([
    ['BRIDGE_OFFLINE', 'x', 'The till service is not running'],
    ['NETWORK', 'ECONNRESET', "The bank's service is not answering"],
    ['TIMEOUT', 'slow', "The bank's service is not answering"],
    [
      'PROVIDER_AUTH_REFUSED',
      '401',
      'The provider refused our key — ask the manager to check Settings',
    ],
    ['UNAUTHORISED', 'Missing or wrong token.', 'This page is no longer connected'],
    ['SALE_NOT_OPEN', 'Sale 3 is paid', 'This sale is already finished'],
  ] as const)('%s', (code, message, words) => {
    expect(cashierMessage({ code, message })).toContain(words);
  });

  it("shows main's own words where main says more, and the table's when it sent none", () => {
    expect(cashierMessage({ code: 'WRONG_PIN', message: 'Wrong PIN: 2 tries left.' })).toBe(
      'Wrong PIN: 2 tries left.',
    );
    expect(cashierMessage({ code: 'WRONG_PIN', message: '' })).toBe(CASHIER_WORDS.WRONG_PIN);
  });

  it("shows a code this page does not know by main's message, else a plain sentence", () => {
    expect(
      cashierMessage(fromTheWire('{"code":"SOMETHING_NEW","message":"A message from main"}')),
    ).toBe('A message from main');
    expect(cashierMessage(fromTheWire('{"code":"SOMETHING_NEW","message":""}'))).toBe(
      'Something went wrong. Try again.',
    );
  });

  it('shows validation messages without the field prefix', () => {
    expect(
      cashierMessage({
        code: 'INVALID_INPUT',
        message: 'amount: Enter an amount',
        field: 'amount',
      }),
    ).toBe('Enter an amount');
    expect(cashierMessage({ code: 'INVALID_AMOUNT', message: 'Too many decimals' })).toBe(
      'Too many decimals',
    );
  });
});
