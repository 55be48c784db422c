import { describe, expect, it } from 'vitest';
import { MoneyError, nairaToKobo } from '#shared/money';
import { createPrng } from '#support/random';

/*
 * nairaToKobo reads a number without its text when it is plainly a two-decimal amount (the
 * webhook's hint reads one per callback); this holds that path to the text's answer.
 */
describe('nairaToKobo of a number', () => {
  /** The number's answer, or its error's message: a number and its text must agree on both. */
  function outcome(value: number | string): number | string {
    try {
      return nairaToKobo(value);
    } catch (error) {
      return error instanceof MoneyError ? 'refused' : String(error);
    }
  }

  it('reads a number as it reads its shortest text, whatever the number', () => {
    // A number is read without its text when it is plainly a two-decimal amount; this holds it to
    // the text's answer: two-decimal amounts up to the limit, their neighbours one double away,
    // three-decimal and tiny amounts, and amounts just past the limit.
    const prng = createPrng(20261203);
    const values: number[] = [-0, 0.005, 1.005, 1.15, 19.99, 1e13, 1e13 + 0.01, 1e13 + 0.02];
    for (let i = 0; i < 20_000; i += 1) {
      const digits = prng.int(0, 15);
      const kobo = Math.floor(prng.next() * 10 ** digits) * (prng.chance(0.1) ? -1 : 1);
      const naira = kobo / 100;
      values.push(naira, naira + Number.EPSILON * Math.abs(naira), naira / 10, naira * 1.0000001);
    }
    let agreed = 0;
    for (const value of values) {
      const text = String(value);
      if (/e/i.test(text)) continue; // the text reader takes no exponents; the number reader does
      expect({ value, outcome: outcome(value) }).toEqual({ value, outcome: outcome(text) });
      agreed += 1;
    }
    expect(agreed).toBeGreaterThan(70_000);
    expect(outcome(-0)).toBe(0);
    expect(Object.is(outcome(-0), -0)).toBe(false);
  });
});
