import { describe, expect, it } from 'vitest';
import {
  AmountWordsError,
  MAX_SAYABLE_KOBO,
  nairaInWords,
  paidAnnouncement,
  wholeNumberInWords,
} from './naira-words';

describe('wholeNumberInWords', () => {
  it.each([
    [0, 'zero'],
    [1, 'one'],
    [9, 'nine'],
    [10, 'ten'],
    [11, 'eleven'],
    [13, 'thirteen'],
    [19, 'nineteen'],
    [20, 'twenty'],
    [21, 'twenty-one'],
    [40, 'forty'],
    [99, 'ninety-nine'],
    [100, 'one hundred'],
    [101, 'one hundred and one'],
    [110, 'one hundred and ten'],
    [115, 'one hundred and fifteen'],
    [999, 'nine hundred and ninety-nine'],
    [1_000, 'one thousand'],
    [1_001, 'one thousand and one'],
    [1_050, 'one thousand and fifty'],
    [1_099, 'one thousand and ninety-nine'],
    [1_100, 'one thousand one hundred'],
    [1_500, 'one thousand five hundred'],
    [1_505, 'one thousand five hundred and five'],
    [2_020, 'two thousand and twenty'],
    [10_000, 'ten thousand'],
    [12_345, 'twelve thousand three hundred and forty-five'],
    [100_000, 'one hundred thousand'],
    [100_001, 'one hundred thousand and one'],
    [250_000, 'two hundred and fifty thousand'],
    [999_999, 'nine hundred and ninety-nine thousand nine hundred and ninety-nine'],
    [1_000_000, 'one million'],
    [1_000_005, 'one million and five'],
    [1_000_500, 'one million, five hundred'],
    [1_005_000, 'one million, five thousand'],
    [1_234_567, 'one million, two hundred and thirty-four thousand five hundred and sixty-seven'],
    [2_000_050, 'two million and fifty'],
    [2_305_000, 'two million, three hundred and five thousand'],
    [5_000_000, 'five million'],
    [1_000_000_000, 'one billion'],
    [1_000_000_001, 'one billion and one'],
    [1_000_001_000, 'one billion, one thousand'],
    [3_000_200_000, 'three billion, two hundred thousand'],
    [
      999_999_999_999,
      'nine hundred and ninety-nine billion, nine hundred and ninety-nine million, ' +
        'nine hundred and ninety-nine thousand nine hundred and ninety-nine',
    ],
  ] as const)('%i is "%s"', (n, words) => {
    expect(wholeNumberInWords(n)).toBe(words);
  });

  it.each([-1, 1.5, 1_000_000_000_000, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses %s with a typed error',
    (n) => {
      expect(() => wholeNumberInWords(n)).toThrow(AmountWordsError);
    },
  );
});

describe('nairaInWords', () => {
  it.each([
    [0, 'zero naira'],
    [1, 'one kobo'],
    [50, 'fifty kobo'],
    [99, 'ninety-nine kobo'],
    [100, 'one naira'],
    [101, 'one naira, one kobo'],
    [150_000, 'one thousand five hundred naira'],
    [150_050, 'one thousand five hundred naira, fifty kobo'],
    [150_005, 'one thousand five hundred naira, five kobo'],
    [123_456, 'one thousand two hundred and thirty-four naira, fifty-six kobo'],
    [100_099, 'one thousand naira, ninety-nine kobo'],
    [230_500_000, 'two million, three hundred and five thousand naira'],
    // The till's default largest sale.
    [500_000_000, 'five million naira'],
    [
      499_999_999,
      'four million, nine hundred and ninety-nine thousand nine hundred and ninety-nine naira, ninety-nine kobo',
    ],
    [
      MAX_SAYABLE_KOBO,
      'nine hundred and ninety-nine billion, nine hundred and ninety-nine million, ' +
        'nine hundred and ninety-nine thousand nine hundred and ninety-nine naira, ninety-nine kobo',
    ],
  ] as const)('%i kobo is "%s"', (kobo, words) => {
    expect(nairaInWords(kobo)).toBe(words);
  });

  it.each([-1, 0.5, 150_000.5, MAX_SAYABLE_KOBO + 1, Number.NaN])('refuses %s kobo', (kobo) => {
    const attempt = () => nairaInWords(kobo);
    expect(attempt).toThrow(AmountWordsError);
    expect(attempt).toThrow(/cannot be said/);
  });

  it('names its error code', () => {
    expect(new AmountWordsError(-1).code).toBe('AMOUNT_NOT_SAYABLE');
  });
});

describe('paidAnnouncement', () => {
  it.each([
    [150_000, 'one thousand five hundred naira received'],
    [150_050, 'one thousand five hundred naira, fifty kobo received'],
    [230_500_000, 'two million, three hundred and five thousand naira received'],
    [20, 'twenty kobo received'],
    [100_000_000, 'one million naira received'],
  ] as const)('%i kobo: "%s"', (kobo, words) => {
    expect(paidAnnouncement(kobo)).toBe(words);
  });
});
