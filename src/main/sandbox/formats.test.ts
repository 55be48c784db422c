import { describe, expect, it } from 'vitest';
import { newAccessToken, newAccountNumber, newSecretKey, newSessionId } from './ids';
import { formatProviderDate, nipTimestamp } from './lagos-time';
import { balanceDisplay } from './provider-answers';

describe('lagos time', () => {
  it('formats epoch ms as YYYY-MM-DD HH:MM:SS in UTC+1', () => {
    expect(formatProviderDate(Date.UTC(2025, 0, 15, 8, 0, 0))).toBe('2025-01-15 09:00:00');
    expect(formatProviderDate(Date.UTC(2025, 11, 31, 23, 30, 5))).toBe('2026-01-01 00:30:05');
    expect(nipTimestamp(Date.UTC(2025, 6, 4, 12, 34, 56))).toBe('250704133456');
  });
});

describe('balanceDisplay', () => {
  it.each([
    [0, 'NGN 0.00'],
    [5, 'NGN 0.05'],
    [250_500, 'NGN 2,505.00'],
    [123_456_789, 'NGN 1,234,567.89'],
    [-100_000, 'NGN -1,000.00'],
  ])('%i kobo is %s', (kobo, text) => {
    expect(balanceDisplay(kobo)).toBe(text);
  });
});

describe('ids', () => {
  it('makes credentials and numbers of the documented shapes', () => {
    expect(newSecretKey()).toMatch(/^sk_sandbox_[0-9a-f]{32}$/);
    expect(newAccessToken()).toMatch(/^at_sandbox_[0-9a-f]{32}$/);
    expect(newAccountNumber()).toMatch(/^\d{10}$/);
    const session = newSessionId(Date.UTC(2025, 0, 15, 8, 0, 0));
    expect(session).toMatch(/^999999250115090000\d{12}$/);
    expect(newSessionId(0)).not.toBe(newSessionId(0));
  });
});
