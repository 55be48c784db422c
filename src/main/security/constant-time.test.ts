import { describe, expect, it } from 'vitest';
import { createSecretMatcher, sameSecret } from './constant-time';

describe('sameSecret', () => {
  it('accepts only the identical string', () => {
    expect(sameSecret('abc123XYZ', 'abc123XYZ')).toBe(true);
    expect(sameSecret('abc123XYz', 'abc123XYZ')).toBe(false);
    expect(sameSecret('abc123XY', 'abc123XYZ')).toBe(false);
    expect(sameSecret('', 'abc')).toBe(false);
    expect(sameSecret('é', 'e\u0301')).toBe(false);
  });
});

describe('createSecretMatcher', () => {
  it('finds a match anywhere in the list, across a rotation and past its cache', () => {
    const matches = createSecretMatcher();
    const lists = [['a', 'b'], ['c', 'a'], Array.from({ length: 12 }, (_, i) => `s${i}`), ['a']];
    for (const list of lists) {
      for (const given of ['a', 'b', 'c', 's3', 's11', 'z', '']) {
        expect(matches(given, list)).toBe(list.includes(given));
      }
    }
    expect(matches('a', [])).toBe(false);
  });

  it('matches no prefix, extension, case change or other encoding of a secret', () => {
    const matches = createSecretMatcher();
    const token = 'Abc123_-xyzXYZ0987654321abcdefghijKLMNOPQRS';
    for (const given of [
      token.slice(0, -1),
      `${token}A`,
      token.toLowerCase(),
      `${token.slice(0, -1)}\u00e9`,
      '',
    ]) {
      expect(matches(given, [token, 'another-secret-of-22-chars'])).toBe(false);
    }
    expect(matches('é', ['e\u0301'])).toBe(false);
    expect(matches(token, ['another-secret-of-22-chars', token])).toBe(true);
  });
});
