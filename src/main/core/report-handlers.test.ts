import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '#shared/settings-schema';
import { createReferenceGenerator } from '#main/provider/references';
import { insertStandingAccounts, insertInflowRow, nextSessionId } from '#support/shop-history';
import { createTestDb } from '#support/database';
import { reportHandlers } from './report-handlers';

const HOUR = 3_600_000;
/** 2026-11-23 02:00 in Lagos: with a 04:00 cut-off, still the 22nd's business day. */
const NOW = Date.UTC(2026, 10, 23, 1);

describe('getTrend', () => {
  const { db } = createTestDb();
  insertInflowRow(
    db,
    {
      sessionId: nextSessionId(),
      reference: createReferenceGenerator({ prefix: 'TILLA7K2', clock: () => NOW }).next(),
      amountKobo: 150_000,
      status: 'success',
      occurredAt: NOW - HOUR,
      saleId: null,
      listed: true,
    },
    NOW,
  );
  const settings = {
    ...DEFAULT_SETTINGS,
    timeZone: 'Africa/Lagos',
    dayCutoffHour: 4,
    shop: { ...DEFAULT_SETTINGS.shop, tillId: 'till-a7k2' },
  };
  const { getTrend } = reportHandlers({ db: () => db, settings: () => settings, now: () => NOW });
  const owner = { role: 'owner', name: null, sessionId: 's', via: 'browser' } as const;

  it("ends on today's business day (by the shop's zone and cut-off) unless a day is asked for", async () => {
    const today = await getTrend({}, owner);
    expect(today).toMatchObject({
      fromDay: '2026-11-16',
      toDay: '2026-11-22',
      cutoffHour: 4,
      tillId: 'till-a7k2',
      generatedAt: NOW,
    });
    expect(today.days.at(-1)?.thisTill).toEqual({ count: 1, amountKobo: 150_000 });

    const earlier = await getTrend({ day: '2026-11-20' }, owner);
    expect(earlier.days.map((day) => day.day)).toEqual([
      '2026-11-14',
      '2026-11-15',
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
    ]);
    expect(earlier.days.every((day) => day.shop.count === 0)).toBe(true);
  });
});

describe("the owner's standing-account limit (Settings) reaches the report and the CSV", () => {
  const { db } = createTestDb();
  const [accountId] = insertStandingAccounts(db, NOW - 2 * HOUR);
  const sessionId = nextSessionId();
  insertInflowRow(
    db,
    {
      sessionId,
      reference: 'COUNTER-REF',
      amountKobo: 6_000_000,
      status: 'success',
      occurredAt: NOW - HOUR,
      saleId: null,
      accountId: accountId ?? null,
      listed: true,
    },
    NOW,
  );
  const owner = { role: 'owner', name: null, sessionId: 's', via: 'browser' } as const;
  function handlers(flagAboveKobo: number) {
    const settings = {
      ...DEFAULT_SETTINGS,
      timeZone: 'Africa/Lagos',
      dayCutoffHour: 4,
      standingAccounts: { flagAboveKobo },
    };
    return reportHandlers({ db: () => db, settings: () => settings, now: () => NOW });
  }

  it('lists a ₦60,000 payment above a ₦5,000 limit, and nothing with the rule off', async () => {
    const on = handlers(500_000);
    const report = await on.getZReport({}, owner);
    expect(report.exceptions.filter((e) => e.kind === 'standing_above_limit')).toMatchObject([
      { sessionId, key: `standing_above_limit:session:${sessionId}` },
    ]);
    expect((await on.exportCsv({}, owner)).csv).toContain('Large payment into a standing account');

    const off = handlers(0);
    expect((await off.getZReport({}, owner)).exceptions.map((e) => e.kind)).not.toContain(
      'standing_above_limit',
    );
    expect((await off.exportCsv({}, owner)).csv).not.toContain(
      'Large payment into a standing account',
    );
  });
});
