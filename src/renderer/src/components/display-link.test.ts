import { describe, expect, it } from 'vitest';
import { displayTokenOf } from './display-link';

/**
 * Main's displayTokenFor (node:crypto) gave these; the page derives the same with Web Crypto, or
 * the display it opens is refused. test/e2e/settings-pages.test.ts shows the two agree end to end.
 */
const FROM_MAIN: readonly (readonly [string, string])[] = [
  ['abc', 'nJ5mNF7cV4Y2Ju8id_HSzm'],
  ['Zq81mWn4Lp9876_-xY2aB', 'GMZJ7PYaK2dybKWuKGlOP2'],
  ['x'.repeat(43), '5vYrRof6_2aZFmup1_DTt1'],
];

describe("the customer display's token, derived in the page", () => {
  it.each(FROM_MAIN)('is main’s token for the shell token %s', async (shellToken, expected) => {
    expect(await displayTokenOf(shellToken, globalThis.crypto.subtle)).toBe(expected);
  });
});
