import type { Handlers } from '../../shared/bridge/contract';
import { requestedDayRange } from '../reports/report-range';
import { buildPdfExport } from '../reports/pdf/pdf-export';
import type { SettingsStore } from '../settings/settings-store';
import type { Db } from '../store/database';

export interface ReportFileHandlerDeps {
  /** The database of the environment active at call time (the report belongs to it). */
  readonly db: () => Db;
  readonly settings: SettingsStore;
  readonly now: () => number;
}

/** Report files made in main, so that both shells save the same file ("Save as PDF"). */
export function reportFileHandlers(deps: ReportFileHandlerDeps): Pick<Handlers, 'exportPdf'> {
  return {
    exportPdf: (input) => {
      const current = deps.settings.get();
      const now = deps.now();
      return buildPdfExport(deps.db(), {
        ...requestedDayRange(input, current, now),
        tillId: current.shop.tillId,
        now,
        shopName: current.shop.name,
        environment: current.environment,
      });
    },
  };
}
