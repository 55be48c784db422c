import { describe, expect, it } from 'vitest';
import { ipFamily } from './settings-schema';

describe('ipFamily', () => {
  it.each([
    ['192.168.0.1', 4],
    ['0.0.0.0', 4],
    ['255.255.255.255', 4],
    ['::1', 6],
    ['2001:db8::8a2e:370:7334', 6],
    ['::ffff:192.0.2.128', 6],
    ['256.1.1.1', 0],
    ['1.2.3', 0],
    ['01.2.3.4', 0],
    ['2001:db8:::1', 0],
    ['example.com', 0],
    ['', 0],
    ['1.2.3.4]/x[', 0],
  ] as const)('%s is family %i', (address, family) => {
    expect(ipFamily(address)).toBe(family);
  });
});
