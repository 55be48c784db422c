import type { Handlers } from '../../shared/bridge/contract';
import { businessDay } from '../../shared/provider-time';
import type { Settings } from '../../shared/settings-schema';
import type { DayRangeOptions } from '../reports/report-range';
import { buildPdfExport } from '../reports/pdf/pdf-export';
import type { SettingsStore } from '../settings/settings-store';
import type { Db } from '../store/database';

export interface ReportFileHandlerDeps {
  /** The database of the environment active at call time (the report belongs to it). */
  readonly db: () => Db;
  readonly settings: SettingsStore;
  readonly now: () => number;
}

/**
 * The days a report file covers, read from the same input as the report and the CSV: one `day`,
 * or `fromDay`..`toDay`, or today's business day (the shop's zone and cut-off).
 */
export function fileDayRange(
  input: { readonly day?: string; readonly fromDay?: string; readonly toDay?: string },
  settings: Pick<Settings, 'timeZone' | 'dayCutoffHour'>,
  now: number,
): DayRangeOptions {
  const today = businessDay(now, {
    timeZone: settings.timeZone,
    cutoffHour: settings.dayCutoffHour,
  });
  const fromDay = input.fromDay ?? input.day ?? today;
  return {
    fromDay,
    toDay: input.toDay ?? input.day ?? fromDay,
    timeZone: settings.timeZone,
    cutoffHour: settings.dayCutoffHour,
  };
}

/** Report files made in main, so that both shells save the same file ("Save as PDF"). */
export function reportFileHandlers(deps: ReportFileHandlerDeps): Pick<Handlers, 'exportPdf'> {
  return {
    exportPdf: (input) => {
      const current = deps.settings.get();
      const now = deps.now();
      return buildPdfExport(deps.db(), {
        ...fileDayRange(input, current, now),
        tillId: current.shop.tillId,
        now,
        shopName: current.shop.name,
        environment: current.environment,
      });
    },
  };
}
