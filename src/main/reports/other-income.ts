/**
 * "Other income on this account": when Settings say the merchant account also receives
 * transfers from other channels (report.otherIncome), money with no reference of this shop is
 * listed here, counted apart from the shop's sales, and is no case for a person. Without that
 * choice the same transfers are exceptions (z-report.ts).
 */
import type { AmountTotal, OtherIncomeView } from '#shared/views';
import type { Db } from '#main/store/database';
import { otherIncomeInflows, otherIncomeTotals, type Range } from '#main/store/z-report-queries';

const ZERO: AmountTotal = { count: 0, amountKobo: 0 };

/** Needs the attribution SQL functions on `db` (registerAttributionSql). */
export function otherIncomeOf(
  db: Db,
  range: Range,
  tillPrefix: string,
  limit: number,
): OtherIncomeView {
  const totals = otherIncomeTotals(db, range, tillPrefix);
  const total = (status: string): AmountTotal => {
    const row = totals.find((r) => r.status === status);
    return row ? { count: row.count, amountKobo: row.amountKobo } : ZERO;
  };
  return {
    success: total('success'),
    failed: total('failed'),
    transfers: otherIncomeInflows(db, range, tillPrefix, limit).map((row) => ({
      sessionId: row.sessionId,
      reference: row.reference,
      amountKobo: row.amountKobo,
      status: row.status,
      at: row.at,
    })),
  };
}
