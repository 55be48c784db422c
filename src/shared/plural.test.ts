import { describe, expect, it } from 'vitest';
import { countWords } from './plural';

describe('countWords', () => {
  it('says one thing in the singular and every other count in the plural', () => {
    expect(countWords(1, 'transaction')).toBe('1 transaction');
    expect(countWords(0, 'transaction')).toBe('0 transactions');
    expect(countWords(12, 'minute')).toBe('12 minutes');
    expect(countWords(2, 'entry', 'entries')).toBe('2 entries');
  });
});
