import { describe, expect, it } from 'vitest';
import { callbackRowDaysOf, ipFamily, settingsSchema } from './settings-schema';

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

describe('retention.callbackRowDays', () => {
  const retention = (value: unknown) => settingsSchema.safeParse({ retention: value });

  it("defaults to a year, or to the bodies' age when that is longer (settings saved before it)", () => {
    const rowDays = (value: unknown) => {
      const parsed = retention(value).data;
      return parsed ? callbackRowDaysOf(parsed.retention) : null;
    };
    expect(rowDays({})).toBe(365);
    expect(rowDays({ callbackBodyDays: 400 })).toBe(400);
    expect(rowDays({ callbackRowDays: 200 })).toBe(200);
    expect(rowDays({ callbackBodyDays: 400, callbackRowDays: 500 })).toBe(500);
  });

  it("is never shorter than the bodies' age, with a clear error on the field", () => {
    const result = retention({ callbackBodyDays: 120, callbackRowDays: 100 });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['retention', 'callbackRowDays'],
        message: 'Keep callbacks at least as long as their bodies (120 days)',
      }),
    ]);
    expect(retention({ callbackRowDays: 10 }).error?.issues[0]?.message).toBe(
      'Keep callbacks at least 30 days',
    );
  });
});
