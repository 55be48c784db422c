/** What a Z-report (and the exceptions the CSV export shares with it) is built for. */
import type { DayRangeOptions } from './report-range';

export interface ZReportOptions extends DayRangeOptions {
  readonly now: number;
  /**
   * This till's id: its reference prefix tells this till's payments from other tills'.
   * Default: the id every install had before ids were made unique.
   */
  readonly tillId?: string;
  /**
   * The account also receives transfers from other channels (Settings, report.otherIncome):
   * money no till of this shop made is other income, not an exception. Default false.
   */
  readonly otherIncome?: boolean;
  /**
   * A success above this many kobo into a standing (static-flex counter) account is an
   * exception (Settings, standingAccounts.flagAboveKobo). Default 0: off.
   */
  readonly standingFlagAboveKobo?: number;
  /** Most exceptions listed per kind (the oldest first); default 500. */
  readonly exceptionLimit?: number;
  /**
   * How long after a payment the provider's listing may take to show it. A paid sale is called
   * missing from the listing only when a complete sync started at least this long after it.
   */
  readonly listingLagMs?: number;
}

export const DEFAULT_EXCEPTION_LIMIT = 500;
export const DEFAULT_LISTING_LAG_MS = 5 * 60_000;
