import type { HandlersOf, reportChannels } from '#shared/bridge/contract';
import { businessDay } from '#shared/provider-time';
import type { Settings } from '#shared/settings-schema';
import { namePairedCounterTills } from '#main/hub/counter-names';
import { buildCsvExport } from '#main/reports/csv';
import { buildPdfExport } from '#main/reports/pdf/pdf-export';
import { reportRange, requestedDayRange } from '#main/reports/report-range';
import { listTransactions } from '#main/reports/transactions';
import { buildTrend } from '#main/reports/trend';
import { buildZReport } from '#main/reports/z-report';
import type { Db } from '#main/store/database';

export interface ReportHandlerDeps {
  /** The database of the environment active at call time (the report is its money). */
  readonly db: () => Db;
  readonly settings: () => Settings;
  readonly now: () => number;
}

/**
 * The end-of-day report of a day range (today's business day unless one is asked for): on
 * screen, as the transaction list, the trend, and as files made in main so that both shells
 * save the same file.
 */
export function reportHandlers(deps: ReportHandlerDeps): HandlersOf<typeof reportChannels> {
  function dayRange(input: {
    readonly day?: string;
    readonly fromDay?: string;
    readonly toDay?: string;
  }) {
    return requestedDayRange(input, deps.settings(), deps.now());
  }

  return {
    // The shop view names the tills that are counters paired to this hub.
    getZReport: (input) => {
      const db = deps.db();
      return namePairedCounterTills(
        db,
        buildZReport(db, {
          ...dayRange(input),
          tillId: deps.settings().shop.tillId,
          otherIncome: deps.settings().report.otherIncome,
          standingFlagAboveKobo: deps.settings().standingAccounts.flagAboveKobo,
          now: deps.now(),
        }),
      );
    },
    getTrend: ({ day }) => {
      const current = deps.settings();
      const now = deps.now();
      const zone = { timeZone: current.timeZone, cutoffHour: current.dayCutoffHour };
      return buildTrend(deps.db(), {
        ...zone,
        toDay: day ?? businessDay(now, zone),
        tillId: current.shop.tillId,
        now,
      });
    },
    listTransactions: ({ status, search, offset, limit, ...range }) =>
      listTransactions(deps.db(), {
        ...reportRange(dayRange(range)),
        ...(status ? { status } : {}),
        ...(search ? { search } : {}),
        offset,
        limit,
      }),
    exportCsv: (input) =>
      buildCsvExport(deps.db(), {
        ...dayRange(input),
        tillId: deps.settings().shop.tillId,
        otherIncome: deps.settings().report.otherIncome,
        standingFlagAboveKobo: deps.settings().standingAccounts.flagAboveKobo,
        now: deps.now(),
      }),
    exportPdf: (input) => {
      const current = deps.settings();
      const now = deps.now();
      return buildPdfExport(deps.db(), {
        ...requestedDayRange(input, current, now),
        tillId: current.shop.tillId,
        otherIncome: current.report.otherIncome,
        standingFlagAboveKobo: current.standingAccounts.flagAboveKobo,
        now,
        shopName: current.shop.name,
        environment: current.environment,
      });
    },
  };
}
