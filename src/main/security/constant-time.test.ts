import { describe, expect, it } from 'vitest';
import { createSecretMatcher, matchesAnySecret, sameSecret } from './constant-time';

describe('sameSecret', () => {
  it('accepts only the identical string', () => {
    expect(sameSecret('abc123XYZ', 'abc123XYZ')).toBe(true);
    expect(sameSecret('abc123XYz', 'abc123XYZ')).toBe(false);
    expect(sameSecret('abc123XY', 'abc123XYZ')).toBe(false);
    expect(sameSecret('', 'abc')).toBe(false);
    expect(sameSecret('é', 'e\u0301')).toBe(false);
  });

  it('matchesAnySecret finds a match anywhere in the list and none in an empty list', () => {
    expect(matchesAnySecret('b', ['a', 'b', 'c'])).toBe(true);
    expect(matchesAnySecret('a', ['a', 'b'])).toBe(true);
    expect(matchesAnySecret('d', ['a', 'b', 'c'])).toBe(false);
    expect(matchesAnySecret('a', [])).toBe(false);
  });
});

describe('createSecretMatcher', () => {
  it('answers as matchesAnySecret, across a rotation and past its cache', () => {
    const matches = createSecretMatcher();
    const lists = [['a', 'b'], ['c', 'a'], Array.from({ length: 12 }, (_, i) => `s${i}`), ['a']];
    for (const list of lists) {
      for (const given of ['a', 'b', 'c', 's3', 's11', 'z', '']) {
        expect(matches(given, list)).toBe(matchesAnySecret(given, list));
      }
    }
    expect(matches('a', [])).toBe(false);
  });
});
