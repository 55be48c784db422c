import { describe, expect, it } from 'vitest';
import { matchesAnySecret, sameSecret } from './constant-time';

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
