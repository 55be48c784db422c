import { describe, expect, it } from 'vitest';
import { accountDetailsText, dayOf, formatCountdown, groupAccountNumber } from './format';
import { sanitizeAmount } from './screens/sale/amount-text';
import { navItemsFor, routeFromHash, routeHashOf } from './routes';

describe('format', () => {
  it('groups a NUBAN for reading aloud', () => {
    expect(groupAccountNumber('0123456789')).toBe('012 345 6789');
    expect(groupAccountNumber('12345678')).toBe('1234 5678');
  });

  it('formats the countdown', () => {
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-5)).toBe('00:00');
    expect(formatCountdown(61_000)).toBe('01:01');
    expect(formatCountdown(60_500)).toBe('01:01');
    expect(formatCountdown(75 * 60_000)).toBe('75:00');
  });

  it('finds the Lagos day around midnight', () => {
    expect(dayOf(Date.UTC(2026, 10, 22, 22, 59))).toBe('2026-11-22');
    expect(dayOf(Date.UTC(2026, 10, 22, 23, 0))).toBe('2026-11-23');
  });

  it('writes the account details for the QR code', () => {
    expect(
      accountDetailsText({
        bank: 'Wema Bank',
        accountNumber: '0123456789',
        accountName: 'Shop',
        amountKobo: 150_005,
      }),
    ).toBe('Bank: Wema Bank\nAccount: 0123456789\nName: Shop\nAmount: NGN 1500.05');
  });
});

describe('sanitizeAmount', () => {
  it.each([
    ['1500', '1500'],
    ['1,500.50', '1500.50'],
    ['007', '7'],
    ['.5', '0.5'],
    ['1.2.3', '1.23'],
    ['12.345', '12.34'],
    ['abc', ''],
    ['1234567890123', '123456789012'],
  ])('%s -> %s', (input, output) => {
    expect(sanitizeAmount(input)).toBe(output);
  });
});

describe('routes', () => {
  it('offers a counter only the cashier screens, whatever its role', () => {
    const labels = (role: 'owner' | 'cashier', counter: boolean) =>
      navItemsFor(role, counter).map((item) => item.label);
    expect(labels('owner', false)).toContain('Counters');
    expect(labels('owner', true)).toEqual(['Sale', 'Activity']);
    expect(labels('cashier', false)).toEqual(['Sale', 'Activity']);
  });

  it('reads the route from the hash, defaulting to the sale screen', () => {
    expect(routeFromHash('#/report')).toBe('report');
    expect(routeFromHash('#/display&token=abc')).toBe('display');
    expect(routeFromHash('')).toBe('sale');
    expect(routeFromHash('#/unknown')).toBe('sale');
  });

  it('keeps the route of a start-up hash that also carries the token', () => {
    expect(routeHashOf('#/display&token=abc')).toBe('#/display');
    expect(routeHashOf('#token=abc')).toBeNull();
    expect(routeHashOf('#/nowhere')).toBeNull();
  });

  it("keeps a pairing link's code and fingerprint, and never a token", () => {
    expect(routeFromHash('#/pair&code=abc_DEF-1&fp=AB12')).toBe('pair');
    expect(routeHashOf('#/pair&code=abc_DEF-1&fp=AB12')).toBe('#/pair&code=abc_DEF-1&fp=AB12');
    expect(routeHashOf('#/pair&token=t&code=abc')).toBe('#/pair&code=abc');
    expect(routeHashOf('#/display&display=xyz')).toBe('#/display');
    expect(routeHashOf('#/settings&code=abc')).toBe('#/settings');
  });
});
