import { describe, expect, it } from 'vitest';
import { formatNaira, koboToDecimalString, koboToNaira, MoneyError, nairaToKobo } from './money';

describe('nairaToKobo', () => {
  it.each([
    [0.01, 1],
    [0.1, 10],
    [1234.56, 123456],
    [1e9, 100_000_000_000],
    [1500, 150_000],
    ['1500.5', 150_050],
    ['0012.30', 1230],
    [19.99, 1999],
    [0, 0],
  ])('converts %s Naira to %s kobo exactly', (naira, kobo) => {
    expect(nairaToKobo(naira)).toBe(kobo);
  });

  it('is exact where float arithmetic is not', () => {
    // 19.99 * 100 is 1998.9999999999998 and 1.15 * 100 is 114.99999999999999 in doubles.
    expect(19.99 * 100).not.toBe(1999);
    expect(nairaToKobo(19.99)).toBe(1999);
    expect(nairaToKobo(1.15)).toBe(115);
    expect(nairaToKobo(1.1) + nairaToKobo(2.2)).toBe(nairaToKobo(3.3));
  });

  it('refuses a float artefact with more than two decimals instead of rounding it', () => {
    expect(() => nairaToKobo(1.1 + 2.2)).toThrow(MoneyError);
    expect(() => nairaToKobo(1.234)).toThrow(/more than two decimal places/);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, 'abc', '', '1,000', '1e3', 1e16])(
    'refuses %s',
    (value) => {
      expect(() => nairaToKobo(value)).toThrow(MoneyError);
    },
  );

  it('keeps the sign of negative amounts (refunds, corrections)', () => {
    expect(nairaToKobo(-12.5)).toBe(-1250);
  });
});

describe('kobo out', () => {
  it('gives the provider a two-decimal Naira number', () => {
    expect(JSON.stringify({ amount: koboToNaira(123456) })).toBe('{"amount":1234.56}');
    expect(JSON.stringify({ amount: koboToNaira(110) })).toBe('{"amount":1.1}');
    expect(koboToNaira(1)).toBe(0.01);
    for (let kobo = 0; kobo < 20_000; kobo += 7) expect(nairaToKobo(koboToNaira(kobo))).toBe(kobo);
  });

  it('formats for people as ₦1,234.50', () => {
    expect(formatNaira(123450)).toBe('₦1,234.50');
    expect(formatNaira(1)).toBe('₦0.01');
    expect(formatNaira(100_000_000_000)).toBe('₦1,000,000,000.00');
  });

  it('writes plain decimals for exports', () => {
    expect(koboToDecimalString(123450)).toBe('1234.50');
    expect(koboToDecimalString(5)).toBe('0.05');
    expect(koboToDecimalString(-5)).toBe('-0.05');
  });

  it('refuses non-integer kobo', () => {
    expect(() => formatNaira(1.5)).toThrow(MoneyError);
    expect(() => koboToNaira(Number.NaN)).toThrow(MoneyError);
  });
});
