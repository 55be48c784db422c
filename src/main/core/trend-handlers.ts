import type { Handlers } from '../../shared/bridge/contract';
import { businessDay } from '../../shared/provider-time';
import type { Settings } from '../../shared/settings-schema';
import { buildTrend } from '../reports/trend';
import type { Db } from '../store/database';

export interface TrendHandlerDeps {
  /** The database of the environment active at call time (the trend is its money). */
  readonly db: () => Db;
  readonly settings: () => Pick<Settings, 'timeZone' | 'dayCutoffHour' | 'shop'>;
  readonly now: () => number;
}

/** The report's seven-day trend, ending on the report's day (today's business day by default). */
export function trendHandlers(deps: TrendHandlerDeps): Pick<Handlers, 'getTrend'> {
  return {
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
  };
}
