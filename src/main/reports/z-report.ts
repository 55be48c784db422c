/**
 * The end-of-day (Z) report: what the provider says came in during a range of business days,
 * whose money it was (this till's sales, other tills of this shop, the standing accounts, or
 * money no till of the shop made), what this till sold, and the cases a person must look at,
 * each with what to do about it. The queries are in store/z-report-queries.ts.
 *
 * The provider's listing is merchant-wide, so every till of a shop sees every till's payments:
 * each is attributed by its reference (attribution.ts). Another till's payment is that till's
 * business: it counts in the shop total, and never as an exception here.
 */
import { referencePrefix, LEGACY_TILL_ID } from '#shared/till-id';
import type { AmountTotal, OtherTillTotal, ShopTotalsView, ZReportView } from '#shared/views';
import type { Db } from '#main/store/database';
import {
  headlineRows,
  paidSalesByTill,
  shopLineRows,
  successBuckets,
  type Range,
} from '#main/store/z-report-queries';
import { latestSyncRun } from '#main/store/sync-runs-repo';
import { toSyncRunView } from '#main/sync/sync-runs';
import { type ShopLine } from './attribution';
import { registerAttributionSql } from './attribution-sql';
import { otherIncomeOf } from './other-income';
import { exceptionsOf } from './report-exceptions';
import { DEFAULT_EXCEPTION_LIMIT, type ZReportOptions } from './report-options';
import { localHourFn, reportRange } from './report-range';

const ZERO: AmountTotal = { count: 0, amountKobo: 0 };

function plus(a: AmountTotal, b: AmountTotal): AmountTotal {
  return { count: a.count + b.count, amountKobo: a.amountKobo + b.amountKobo };
}

/** Counts and sums (kobo) of success, failed and pending inflows in [fromMs, toMs). */
export function headlineTotals(
  db: Db,
  fromMs: number,
  toMs: number,
): Record<'success' | 'failed' | 'pending', AmountTotal> {
  const rows = headlineRows(db, { fromMs, toMs });
  const find = (status: string): AmountTotal => {
    const row = rows.find((r) => r.status === status);
    return row ? { count: row.count, amountKobo: row.amountKobo } : ZERO;
  };
  return { success: find('success'), failed: find('failed'), pending: find('pending') };
}

/** The successful inflows of a range by the line of the shop view they count on. */
export function shopTotals(db: Db, range: Range, tillId: string): ShopTotalsView {
  registerAttributionSql(db);
  const tillPrefix = referencePrefix(tillId);
  const lines = new Map<ShopLine, AmountTotal>();
  const others = new Map<string, AmountTotal>();
  for (const row of shopLineRows(db, range, tillPrefix)) {
    const line = row.line as ShopLine;
    const total = { count: row.count, amountKobo: row.amountKobo };
    lines.set(line, plus(lines.get(line) ?? ZERO, total));
    if (line === 'other-till' && row.prefix !== null) {
      others.set(row.prefix, plus(others.get(row.prefix) ?? ZERO, total));
    }
  }
  const otherTills: OtherTillTotal[] = [...others]
    .map(([prefix, total]) => ({ tillPrefix: prefix, ...total }))
    .sort((a, b) => b.amountKobo - a.amountKobo || a.tillPrefix.localeCompare(b.tillPrefix));
  const thisTill = lines.get('this-till') ?? ZERO;
  const standingAccounts = lines.get('standing-account') ?? ZERO;
  return {
    tillId,
    tillPrefix,
    thisTill,
    otherTills,
    standingAccounts,
    shopTotal: [thisTill, standingAccounts, ...otherTills].reduce(plus, ZERO),
    notOurs: lines.get('not-ours') ?? ZERO,
  };
}

export function buildZReport(db: Db, options: ZReportOptions): ZReportView {
  const range = reportRange(options);
  const { fromMs, toMs } = range;
  const { timeZone } = options;
  const tillId = options.tillId ?? LEGACY_TILL_ID;
  registerAttributionSql(db);

  // One read transaction: every figure comes from the same snapshot even while sales go on.
  return db.transaction((): ZReportView => {
    const headline = headlineTotals(db, fromMs, toMs);

    const hourOf = localHourFn(fromMs, toMs, timeZone);
    const hours = Array.from({ length: 24 }, () => ({ count: 0, amountKobo: 0 }));
    for (const bucket of successBuckets(db, range)) {
      const slot = hours[hourOf(bucket.bucket * 900_000)];
      if (slot) {
        slot.count += bucket.count;
        slot.amountKobo += bucket.amountKobo;
      }
    }
    // In business-day order: a day that starts at 04:00 reads 04, 05, ... 23, 00, ... 03.
    const byHour = hours.map((_, i) => {
      const hour = (i + options.cutoffHour) % 24;
      return { hour, ...(hours[hour] ?? ZERO) };
    });

    const byTill = paidSalesByTill(db, range).map((row) => ({
      tillId: row.tillId,
      cashier: row.cashier,
      count: row.count,
      amountKobo: row.amountKobo,
    }));

    const shop = shopTotals(db, range, tillId);
    const latest = latestSyncRun(db);

    return {
      fromDay: options.fromDay,
      toDay: options.toDay,
      fromMs,
      toMs,
      timeZone,
      cutoffHour: options.cutoffHour,
      success: headline.success,
      failed: headline.failed,
      pending: headline.pending,
      byHour,
      byTill,
      counter: shop.standingAccounts,
      shop,
      exceptions: exceptionsOf(db, range, options),
      lastSync: latest ? toSyncRunView(latest) : null,
      generatedAt: options.now,
      otherIncome:
        options.otherIncome === true
          ? otherIncomeOf(
              db,
              range,
              referencePrefix(tillId),
              options.exceptionLimit ?? DEFAULT_EXCEPTION_LIMIT,
            )
          : null,
    };
  })();
}
