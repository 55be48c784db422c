import { describe, expect, it } from 'vitest';
import {
  ProviderTimeError,
  businessDay,
  businessDayRange,
  formatIsoInZone,
  formatProviderTimestamp,
  parseProviderTimestamp,
  zoneOffsetMs,
} from './provider-time';

const HOUR = 3_600_000;

function timeError(fn: () => unknown): ProviderTimeError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProviderTimeError) return error;
    throw error;
  }
  throw new Error('expected a ProviderTimeError');
}

describe('parseProviderTimestamp', () => {
  it('reads wall time in Africa/Lagos (UTC+1) by default', () => {
    expect(parseProviderTimestamp('2026-11-22 09:05:00')).toBe(Date.UTC(2026, 10, 22, 8, 5, 0));
  });

  it('reads midnight and the last second of a year', () => {
    expect(parseProviderTimestamp('2026-01-01 00:00:00')).toBe(Date.UTC(2025, 11, 31, 23, 0, 0));
    expect(parseProviderTimestamp('2025-12-31 23:59:59')).toBe(Date.UTC(2025, 11, 31, 22, 59, 59));
  });

  it('accepts 29 February in a leap year only', () => {
    expect(parseProviderTimestamp('2028-02-29 12:00:00')).toBe(Date.UTC(2028, 1, 29, 11, 0, 0));
    expect(timeError(() => parseProviderTimestamp('2026-02-29 12:00:00')).code).toBe(
      'IMPOSSIBLE_DATE',
    );
    expect(timeError(() => parseProviderTimestamp('2100-02-29 12:00:00')).code).toBe(
      'IMPOSSIBLE_DATE',
    );
  });

  it('uses the zone it is given', () => {
    expect(parseProviderTimestamp('2026-11-22 09:05:00', 'UTC')).toBe(
      Date.UTC(2026, 10, 22, 9, 5, 0),
    );
    expect(parseProviderTimestamp('2026-11-22 09:05:00', 'Asia/Kolkata')).toBe(
      Date.UTC(2026, 10, 22, 3, 35, 0),
    );
  });

  it('handles daylight saving: ambiguous times take the earlier instant, gaps move forward', () => {
    // New York falls back on 2026-11-01 at 02:00 EDT -> 01:00 EST.
    expect(parseProviderTimestamp('2026-11-01 01:30:00', 'America/New_York')).toBe(
      Date.UTC(2026, 10, 1, 5, 30, 0),
    );
    // Springs forward on 2026-03-08: 02:30 does not exist and reads as 03:30 EDT.
    expect(parseProviderTimestamp('2026-03-08 02:30:00', 'America/New_York')).toBe(
      Date.UTC(2026, 2, 8, 7, 30, 0),
    );
    expect(parseProviderTimestamp('2026-07-01 12:00:00', 'America/New_York')).toBe(
      Date.UTC(2026, 6, 1, 16, 0, 0),
    );
  });

  it.each([
    '2026-11-22T09:05:00',
    '2026-11-22 09:05',
    '2026-11-22 09:05:00Z',
    '2026-11-22 09:05:00.123',
    '2026-11-22 9:05:00',
    ' 2026-11-22 09:05:00',
    '22/11/2026 09:05:00',
    '',
    'yesterday',
  ])('rejects malformed text %j', (text) => {
    expect(timeError(() => parseProviderTimestamp(text)).code).toBe('MALFORMED_TIMESTAMP');
  });

  it.each([
    '2026-02-30 10:00:00',
    '2026-13-01 10:00:00',
    '2026-00-10 10:00:00',
    '2026-04-31 10:00:00',
    '2026-04-00 10:00:00',
    '2026-04-10 24:00:00',
    '2026-04-10 23:60:00',
    '2026-04-10 23:59:60',
  ])('rejects the impossible date %j', (text) => {
    expect(timeError(() => parseProviderTimestamp(text)).code).toBe('IMPOSSIBLE_DATE');
  });

  it('rejects an unknown zone', () => {
    expect(
      timeError(() => parseProviderTimestamp('2026-11-22 09:05:00', 'Mars/Olympus')).code,
    ).toBe('INVALID_TIME_ZONE');
  });
});

describe('formatIsoInZone and formatProviderTimestamp', () => {
  it('writes ISO 8601 with the zone offset', () => {
    const instant = Date.UTC(2026, 10, 22, 8, 5, 0);
    expect(formatIsoInZone(instant)).toBe('2026-11-22T09:05:00+01:00');
    expect(formatIsoInZone(instant, 'UTC')).toBe('2026-11-22T08:05:00+00:00');
    expect(formatIsoInZone(instant, 'America/New_York')).toBe('2026-11-22T03:05:00-05:00');
    expect(formatIsoInZone(instant, 'Asia/Kolkata')).toBe('2026-11-22T13:35:00+05:30');
    expect(formatIsoInZone(instant + 7)).toBe('2026-11-22T09:05:00.007+01:00');
  });

  it('round-trips with the provider form', () => {
    const text = '2026-11-22 23:59:59';
    expect(formatProviderTimestamp(parseProviderTimestamp(text))).toBe(text);
    expect(zoneOffsetMs(Date.UTC(2026, 0, 1), 'Africa/Lagos')).toBe(HOUR);
  });

  it('rejects a non-finite instant', () => {
    expect(timeError(() => formatIsoInZone(Number.NaN)).code).toBe('INVALID_OPTION');
  });
});

describe('businessDay', () => {
  const lagos = (text: string): number => parseProviderTimestamp(text);

  it('is the Lagos calendar day with cut-off 0', () => {
    expect(businessDay(lagos('2026-11-22 00:00:00'))).toBe('2026-11-22');
    expect(businessDay(lagos('2026-11-22 23:59:59'))).toBe('2026-11-22');
    // 23:30 UTC on the 21st is 00:30 on the 22nd in Lagos.
    expect(businessDay(Date.UTC(2026, 10, 21, 23, 30))).toBe('2026-11-22');
  });

  it('gives times before the cut-off hour to the previous day', () => {
    const opts = { cutoffHour: 4 };
    expect(businessDay(lagos('2026-11-23 03:59:59'), opts)).toBe('2026-11-22');
    expect(businessDay(lagos('2026-11-23 04:00:00'), opts)).toBe('2026-11-23');
    expect(businessDay(lagos('2026-03-01 02:00:00'), opts)).toBe('2026-02-28');
    expect(businessDay(lagos('2026-01-01 01:00:00'), opts)).toBe('2025-12-31');
  });

  it('uses the zone it is given', () => {
    expect(businessDay(Date.UTC(2026, 10, 22, 2, 0), { timeZone: 'America/New_York' })).toBe(
      '2026-11-21',
    );
  });

  it('rejects a bad cut-off hour', () => {
    expect(timeError(() => businessDay(0, { cutoffHour: 24 })).code).toBe('INVALID_OPTION');
    expect(timeError(() => businessDay(0, { cutoffHour: 1.5 })).code).toBe('INVALID_OPTION');
    expect(timeError(() => businessDay(0, { cutoffHour: -1 })).code).toBe('INVALID_OPTION');
  });
});

describe('businessDayRange', () => {
  it('runs from the cut-off hour to the next day’s, in Lagos', () => {
    const [start, end] = businessDayRange('2026-11-22', { cutoffHour: 4 });
    expect(start).toBe(Date.UTC(2026, 10, 22, 3, 0, 0));
    expect(end).toBe(Date.UTC(2026, 10, 23, 3, 0, 0));
    expect(businessDay(start, { cutoffHour: 4 })).toBe('2026-11-22');
    expect(businessDay(end - 1, { cutoffHour: 4 })).toBe('2026-11-22');
    expect(businessDay(end, { cutoffHour: 4 })).toBe('2026-11-23');
  });

  it('crosses month and year ends', () => {
    const [start, end] = businessDayRange('2026-12-31');
    expect(start).toBe(Date.UTC(2026, 11, 30, 23, 0, 0));
    expect(end).toBe(Date.UTC(2026, 11, 31, 23, 0, 0));
  });

  it('is 23 hours long on a spring-forward day elsewhere', () => {
    const [start, end] = businessDayRange('2026-03-08', { timeZone: 'America/New_York' });
    expect(end - start).toBe(23 * HOUR);
  });

  it('rejects malformed and impossible days', () => {
    expect(timeError(() => businessDayRange('2026-2-3')).code).toBe('MALFORMED_TIMESTAMP');
    expect(timeError(() => businessDayRange('2026-02-30')).code).toBe('IMPOSSIBLE_DATE');
  });
});
