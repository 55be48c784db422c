import { describe, expect, it } from 'vitest';
import { AmountInputError, parseNairaInput } from './amount-input';

describe('parseNairaInput', () => {
  it.each([
    ['1500', 150_000],
    ['1,500.50', 150_050],
    ['₦1,500', 150_000],
    ['NGN 20', 2_000],
    [' 0.01 ', 1],
    ['1,234,567.89', 123_456_789],
  ])('reads %s as %i kobo', (text, kobo) => {
    expect(parseNairaInput(text)).toBe(kobo);
  });

  it.each(['', 'abc', '1,50', '1.234', '-5', '1e3', '12,34,567', '١٢٣'])(
    'refuses %j with a field error',
    (text) => {
      expect(() => parseNairaInput(text)).toThrow(AmountInputError);
      try {
        parseNairaInput(text, 'payout');
      } catch (error) {
        expect(error).toMatchObject({ code: 'INVALID_AMOUNT', field: 'payout' });
      }
    },
  );
});
