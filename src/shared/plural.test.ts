import { describe, expect, it } from 'vitest';
import { countOf } from './plural';

describe('countOf', () => {
  it('says one thing in the singular and every other count in the plural', () => {
    expect(countOf(1, 'transaction')).toBe('1 transaction');
    expect(countOf(0, 'transaction')).toBe('0 transactions');
    expect(countOf(12, 'minute')).toBe('12 minutes');
    expect(countOf(2, 'entry', 'entries')).toBe('2 entries');
  });
});
