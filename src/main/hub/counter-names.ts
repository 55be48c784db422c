import { referencePrefix } from '#shared/till-id';
import type { ZReportView } from '#shared/views';
import type { Db } from '#main/store/database';
import { listPairedCounters, type PairedCounterRow } from '#main/store/paired-counters-repo';

/**
 * The report's other tills with the names of the counters paired here: the shop view knows a
 * till only by its reference prefix, which the hub gave each counter. A revoked counter still
 * names its past money; where a live counter and a revoked one had the same prefix, the live one
 * names it, else the newest.
 */
export function nameCounterTills(
  report: ZReportView,
  counters: readonly PairedCounterRow[],
): ZReportView {
  const names = new Map<
    string,
    { readonly name: string; readonly live: boolean; readonly id: number }
  >();
  for (const counter of counters) {
    const prefix = referencePrefix(counter.tillId);
    const live = counter.revokedAt === null;
    const known = names.get(prefix);
    const better =
      !known || (live && !known.live) || (live === known.live && counter.id > known.id);
    if (better) names.set(prefix, { name: counter.name, live, id: counter.id });
  }
  if (names.size === 0) return report;
  return {
    ...report,
    shop: {
      ...report.shop,
      otherTills: report.shop.otherTills.map((till) => {
        const counter = names.get(till.tillPrefix.toUpperCase());
        return counter ? { ...till, counterName: counter.name } : till;
      }),
    },
  };
}

/** The report with the names of the counters paired in this database (live and revoked). */
export function namePairedCounterTills(db: Db, report: ZReportView): ZReportView {
  return nameCounterTills(report, listPairedCounters(db));
}
