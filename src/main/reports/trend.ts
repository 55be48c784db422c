/**
 * The report's trend: the successful inflows of the business days ending on the report's day,
 * day by day, for this till and for the whole shop. Each day's figures are the shop view's
 * (z-report.ts shopTotals): thisTill and shopTotal of that day's report. The query is in
 * store/trend-queries.ts.
 */
import { businessDayRange } from '#shared/provider-time';
import { LEGACY_TILL_ID, referencePrefix } from '#shared/till-id';
import type { AmountTotal, TrendDayView, TrendView } from '#shared/views';
import type { Db } from '#main/store/database';
import { trendBuckets } from '#main/store/trend-queries';
import type { ShopLine } from './attribution';
import { registerAttributionSql } from './attribution-sql';
import { ReportError } from './report-range';

export const TREND_DAYS = 7;
/** A trend is a glance, not a report: a longer range is the report's job. */
export const MAX_TREND_DAYS = 31;

const BUCKET_MS = 900_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface TrendOptions {
  /** The last business day, 'YYYY-MM-DD' (the report's day). */
  readonly toDay: string;
  readonly timeZone: string;
  readonly cutoffHour: number;
  /** This till's id: its reference prefix tells its payments from other tills'. */
  readonly tillId?: string;
  /** How many business days, the last one included; default 7. */
  readonly days?: number;
  readonly now: number;
}

/** The `count` calendar days ending on `toDay`, oldest first ('YYYY-MM-DD'). */
export function daysEnding(toDay: string, count: number): readonly string[] {
  const match = DAY_PATTERN.exec(toDay);
  if (!match) {
    throw new ReportError('INVALID_RANGE', `Use a date like 2026-11-22, not ${toDay}`, 'day');
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const days = Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(year, month - 1, day - (count - 1 - i))).toISOString().slice(0, 10),
  );
  // Date.UTC rolls 2026-02-31 over to March: a day that is not on the calendar is refused.
  if (days.at(-1) !== toDay) {
    throw new ReportError('INVALID_RANGE', `${toDay} is not a day of the calendar.`, 'day');
  }
  return days;
}

function plus(a: AmountTotal, b: AmountTotal): AmountTotal {
  return { count: a.count + b.count, amountKobo: a.amountKobo + b.amountKobo };
}

const ZERO: AmountTotal = { count: 0, amountKobo: 0 };

/** Lines that count in the shop total (money no till of the shop made does not). */
const SHOP_LINES: ReadonlySet<ShopLine> = new Set(['this-till', 'other-till', 'standing-account']);

export function buildTrend(db: Db, options: TrendOptions): TrendView {
  const count = options.days ?? TREND_DAYS;
  if (!Number.isInteger(count) || count < 1 || count > MAX_TREND_DAYS) {
    throw new ReportError('INVALID_RANGE', `A trend covers 1 to ${MAX_TREND_DAYS} days.`, 'days');
  }
  const tillId = options.tillId ?? LEGACY_TILL_ID;
  const days = daysEnding(options.toDay, count);
  // Each day's own range: a zone with daylight saving has days of 23 or 25 hours.
  const ranges = days.map((day) => businessDayRange(day, options));
  const fromMs = ranges[0]?.[0] ?? 0;
  const toMs = ranges.at(-1)?.[1] ?? 0;

  const totals = days.map((day) => ({ day, thisTill: ZERO, shop: ZERO }));
  registerAttributionSql(db);
  for (const row of trendBuckets(db, { fromMs, toMs }, referencePrefix(tillId))) {
    const line = row.line as ShopLine;
    if (!SHOP_LINES.has(line)) continue;
    const at = row.bucket * BUCKET_MS;
    const index = ranges.findIndex(([start, end]) => at >= start && at < end);
    const slot = totals[index];
    if (!slot) continue;
    const total = { count: row.count, amountKobo: row.amountKobo };
    slot.shop = plus(slot.shop, total);
    if (line === 'this-till') slot.thisTill = plus(slot.thisTill, total);
  }

  return {
    fromDay: days[0] ?? options.toDay,
    toDay: options.toDay,
    timeZone: options.timeZone,
    cutoffHour: options.cutoffHour,
    tillId,
    days: totals satisfies readonly TrendDayView[],
    generatedAt: options.now,
  };
}
