import { describe, expect, it } from 'vitest';
import type { AmountTotal } from '#shared/views';
import { createReferenceGenerator } from '#main/provider/references';
import type { Db } from '#main/store/database';
import { createTestDb } from '#support/database';
import { ReportError } from './report-range';
import { insertInflowRow, insertSaleWithHistory, nextSessionId } from '#support/shop-history';
import { buildTrend, daysEnding } from './trend';
import { buildZReport } from './z-report';

const LAGOS = 'Africa/Lagos';
const HOUR = 3_600_000;
const DAY = 86_400_000;
const CUTOFF = 4;
const THIS_TILL = 'till-a7k2';

/** Lagos is UTC+1 all year: local wall time as epoch ms, computed independently of the app. */
function lagos(day: string, hour: number, minute = 0): number {
  const [y, m, d] = day.split('-').map(Number);
  return Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1, hour, minute) - HOUR;
}

/** The business day of an instant in Lagos with a 04:00 cut-off, by plain arithmetic. */
function businessDayOf(at: number): string {
  return new Date(at + HOUR - CUTOFF * HOUR).toISOString().slice(0, 10);
}

type Whose = 'this-till' | 'other-till' | 'counter' | 'old-sale' | 'foreign';

interface Payment {
  readonly whose: Whose;
  readonly at: number;
  readonly amountKobo: number;
  readonly status: 'success' | 'failed' | 'pending';
}

/**
 * One till's database holding the merchant-wide listing: this till's sales, another till's,
 * this till's standing account, a sale made here before the till id changed (its reference has
 * no prefix of ours: local records win), and money no till of the shop made.
 */
function seed(payments: readonly Payment[]): Db {
  const { db } = createTestDb();
  const clock = () => lagos('2026-11-22', 9);
  const here = createReferenceGenerator({ prefix: 'TILLA7K2', clock });
  const there = createReferenceGenerator({ prefix: 'TILLB9Q3', clock });
  const counterReference = here.next('counter');
  db.prepare(
    `INSERT INTO virtual_accounts (type, purpose, reference, status, created_at, updated_at)
     VALUES ('static-flex', 'counter', ?, 'active', 0, 0)`,
  ).run(counterReference);
  payments.forEach((payment, index) => {
    let reference: string;
    switch (payment.whose) {
      case 'this-till':
        reference = here.next();
        break;
      case 'other-till':
        reference = there.next();
        break;
      case 'counter':
        reference = counterReference;
        break;
      case 'old-sale':
        reference = `OLD-SALE-${index}`;
        insertSaleWithHistory(
          db,
          {
            amountKobo: payment.amountKobo,
            tillId: 'till-1',
            cashier: null,
            reference,
            createdAt: payment.at - 60_000,
          },
          [{ at: payment.at - 50_000, state: 'awaiting_payment' }],
        );
        break;
      case 'foreign':
        reference = `INV-${index}`;
        break;
    }
    insertInflowRow(
      db,
      {
        sessionId: nextSessionId(),
        reference,
        amountKobo: payment.amountKobo,
        status: payment.status,
        occurredAt: payment.at,
        saleId: null,
        listed: true,
      },
      payment.at,
    );
  });
  return db;
}

function total(payments: readonly Payment[]): AmountTotal {
  return {
    count: payments.length,
    amountKobo: payments.reduce((sum, payment) => sum + payment.amountKobo, 0),
  };
}

/** What the trend should say, by plain loops over the model. */
function expected(payments: readonly Payment[], days: readonly string[]) {
  return days.map((day) => {
    const ofDay = payments.filter((p) => p.status === 'success' && businessDayOf(p.at) === day);
    return {
      day,
      thisTill: total(ofDay.filter((p) => p.whose === 'this-till' || p.whose === 'old-sale')),
      shop: total(ofDay.filter((p) => p.whose !== 'foreign')),
    };
  });
}

const WEEK = [
  '2026-11-16',
  '2026-11-17',
  '2026-11-18',
  '2026-11-19',
  '2026-11-20',
  '2026-11-21',
  '2026-11-22',
];

/** A seeded mix over nine business days (one before and one after the week), some days empty. */
function generated(): Payment[] {
  let state = 7;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const whoseList: readonly Whose[] = ['this-till', 'other-till', 'counter', 'old-sale', 'foreign'];
  const statuses = ['success', 'success', 'success', 'failed', 'pending'] as const;
  const payments: Payment[] = [];
  for (const day of ['2026-11-15', ...WEEK, '2026-11-23']) {
    if (day === '2026-11-18') continue; // a day with no sales at all
    for (let i = 0; i < 25; i++) {
      payments.push({
        whose: whoseList[Math.floor(random() * whoseList.length)] ?? 'foreign',
        at: lagos(day, CUTOFF) + Math.floor(random() * DAY),
        amountKobo: 100 * (1 + Math.floor(random() * 20_000)),
        status: statuses[Math.floor(random() * statuses.length)] ?? 'success',
      });
    }
  }
  return payments;
}

describe('the seven-day trend', () => {
  const options = { timeZone: LAGOS, cutoffHour: CUTOFF, tillId: THIS_TILL, now: 0 };

  it('sums each business day of the week ending on the report day, for this till and the shop', () => {
    const payments = generated();
    const db = seed(payments);
    const trend = buildTrend(db, { ...options, toDay: '2026-11-22' });
    expect(trend).toMatchObject({
      fromDay: '2026-11-16',
      toDay: '2026-11-22',
      timeZone: LAGOS,
      cutoffHour: CUTOFF,
      tillId: THIS_TILL,
    });
    expect(trend.days).toEqual(expected(payments, WEEK));
    // The empty day is there, with nothing on it; the days around the week are not counted.
    expect(trend.days[2]).toEqual({
      day: '2026-11-18',
      thisTill: { count: 0, amountKobo: 0 },
      shop: { count: 0, amountKobo: 0 },
    });
    expect(trend.days.some((day) => day.shop.count > day.thisTill.count)).toBe(true);
  });

  it("gives each day the same figures as that day's report (its shop view)", () => {
    const db = seed(generated());
    const trend = buildTrend(db, { ...options, toDay: '2026-11-22' });
    for (const day of trend.days) {
      const report = buildZReport(db, { ...options, fromDay: day.day, toDay: day.day });
      expect({ thisTill: day.thisTill, shop: day.shop }, day.day).toEqual({
        thisTill: report.shop.thisTill,
        shop: report.shop.shopTotal,
      });
    }
  });

  it('puts a payment at the cut-off in the day it starts, and one a millisecond earlier in the day before', () => {
    const payments: Payment[] = [
      { whose: 'this-till', at: lagos('2026-11-22', CUTOFF), amountKobo: 500, status: 'success' },
      {
        whose: 'this-till',
        at: lagos('2026-11-22', CUTOFF) - 1,
        amountKobo: 700,
        status: 'success',
      },
      // 02:00 on the 23rd is still the 22nd's business day; 04:00 on the 23rd is after the week.
      { whose: 'other-till', at: lagos('2026-11-23', 2), amountKobo: 900, status: 'success' },
      { whose: 'other-till', at: lagos('2026-11-23', CUTOFF), amountKobo: 1100, status: 'success' },
      // 03:59 on the 16th belongs to the 15th: before the week.
      { whose: 'counter', at: lagos('2026-11-16', 3, 59), amountKobo: 1300, status: 'success' },
    ];
    const trend = buildTrend(seed(payments), { ...options, toDay: '2026-11-22' });
    expect(trend.days.at(-1)).toEqual({
      day: '2026-11-22',
      thisTill: { count: 1, amountKobo: 500 },
      shop: { count: 2, amountKobo: 1400 },
    });
    expect(trend.days.at(-2)).toEqual({
      day: '2026-11-21',
      thisTill: { count: 1, amountKobo: 700 },
      shop: { count: 1, amountKobo: 700 },
    });
    expect(trend.days[0]?.shop).toEqual({ count: 0, amountKobo: 0 });
  });

  it('cuts days of 23 hours right where the clocks change', () => {
    // London went to summer time on 2026-03-29: that day has 23 hours.
    const london = { timeZone: 'Europe/London', cutoffHour: 0, tillId: THIS_TILL, now: 0 };
    const lastHourOfShortDay = Date.UTC(2026, 2, 29, 22, 30); // 23:30 BST on the 29th
    const firstOfNext = Date.UTC(2026, 2, 29, 23, 0); // 00:00 BST on the 30th
    const db = seed([
      { whose: 'this-till', at: lastHourOfShortDay, amountKobo: 300, status: 'success' },
      { whose: 'this-till', at: firstOfNext, amountKobo: 400, status: 'success' },
    ]);
    const trend = buildTrend(db, { ...london, toDay: '2026-03-30' });
    expect(trend.days.slice(-2).map((day) => [day.day, day.thisTill.amountKobo])).toEqual([
      ['2026-03-29', 300],
      ['2026-03-30', 400],
    ]);
  });

  it('covers as many days as asked, across month ends, and refuses days that do not exist', () => {
    expect(daysEnding('2026-03-02', 7)).toEqual([
      '2026-02-24',
      '2026-02-25',
      '2026-02-26',
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
    expect(daysEnding('2027-01-01', 2)).toEqual(['2026-12-31', '2027-01-01']);
    const db = seed([]);
    expect(buildTrend(db, { ...options, toDay: '2026-11-22', days: 1 }).days).toHaveLength(1);
    expect(() => daysEnding('2026-02-31', 7)).toThrow(ReportError);
    expect(() => daysEnding('22/11/2026', 7)).toThrow(ReportError);
    expect(() => buildTrend(db, { ...options, toDay: '2026-11-22', days: 0 })).toThrow(ReportError);
    expect(() => buildTrend(db, { ...options, toDay: '2026-11-22', days: 32 })).toThrow(
      ReportError,
    );
  });
});
