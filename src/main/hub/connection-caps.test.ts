import { describe, expect, it } from 'vitest';
import { addressKey, createConnectionCount, LAN_LIMITS, serverTimeouts } from './connection-caps';

describe('the LAN connection caps', () => {
  it('admits up to the per-address and the total cap, and frees a place on release', () => {
    const count = createConnectionCount({ perAddress: 2, total: 3 });
    expect(count.admit('10.0.0.5')).toBeNull();
    expect(count.admit('10.0.0.5')).toBeNull();
    expect(count.admit('10.0.0.5')).toBe('per-address');
    expect(count.admit('10.0.0.6')).toBeNull();
    expect(count.admit('10.0.0.7')).toBe('total');
    expect(count.open()).toBe(3);
    count.release('10.0.0.5');
    expect(count.admit('10.0.0.7')).toBeNull();
    // A release that was never admitted changes nothing.
    count.release('10.9.9.9');
    expect(count.open()).toBe(3);
  });

  it('treats an IPv4-mapped IPv6 address as the IPv4 one', () => {
    expect(addressKey({ remoteAddress: '::ffff:192.168.1.7' })).toBe('192.168.1.7');
    expect(addressKey({ remoteAddress: 'fe80::1' })).toBe('fe80::1');
  });

  it('bounds what Node leaves unbounded, and keeps headers within the request time', () => {
    const timeouts = serverTimeouts(LAN_LIMITS);
    expect(timeouts.headersTimeout).toBeLessThanOrEqual(timeouts.requestTimeout);
    expect(timeouts.requestTimeout).toBeLessThan(300_000); // Node's default
    expect(LAN_LIMITS.perAddress).toBeLessThan(LAN_LIMITS.total);
  });
});
