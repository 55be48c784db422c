import { describe, expect, it } from 'vitest';
import { ipFamily, settingsSchema } from './settings-schema';

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

describe('standingAccounts.flagAboveKobo', () => {
  it('is off (0) by default, and takes whole kobo from 0 up', () => {
    expect(settingsSchema.parse({}).standingAccounts.flagAboveKobo).toBe(0);
    const ok = settingsSchema.parse({ standingAccounts: { flagAboveKobo: 5_000_050 } });
    expect(ok.standingAccounts.flagAboveKobo).toBe(5_000_050);
    for (const [value, message] of [
      [-1, '0 (off) or more'],
      [1.5, 'Whole kobo only'],
      [100_000_000_001, 'At most ₦1,000,000,000.00'],
    ] as const) {
      const result = settingsSchema.safeParse({ standingAccounts: { flagAboveKobo: value } });
      expect(result.success ? null : result.error.issues[0]?.message).toBe(message);
    }
  });
});
