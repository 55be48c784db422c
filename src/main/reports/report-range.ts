/** The business-day range a report covers, and the small errors and formats reports share. */
import {
  businessDay,
  businessDayRange,
  formatIsoInZone,
  zoneOffsetMs,
} from '#shared/provider-time';
import type { Settings } from '#shared/settings-schema';
import { AppError } from '#shared/errors';

export class ReportError extends AppError<'INVALID_RANGE'> {
  constructor(code: 'INVALID_RANGE', message: string, field?: string) {
    super(code, message, field === undefined ? {} : { field });
    this.name = 'ReportError';
  }
}

export interface DayRangeOptions {
  /** First and last business day, 'YYYY-MM-DD' (the same day for a one-day report). */
  readonly fromDay: string;
  readonly toDay: string;
  /** IANA zone of the shop, e.g. Africa/Lagos. */
  readonly timeZone: string;
  /** Local hour (0..23) at which a business day starts. */
  readonly cutoffHour: number;
}

/**
 * The days a report, a CSV or a report file covers, from the bridge's day input: one `day`, or
 * `fromDay`..`toDay`, or today's business day (the shop's zone and cut-off).
 */
export function requestedDayRange(
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

/** Longest range one report may cover: a year and a day. */
export const MAX_REPORT_DAYS = 366;

/** [fromMs, toMs): from the cut-off hour of fromDay to the cut-off hour after toDay. */
export function reportRange(options: DayRangeOptions): { fromMs: number; toMs: number } {
  if (options.fromDay > options.toDay) {
    throw new ReportError(
      'INVALID_RANGE',
      `The first day (${options.fromDay}) comes after the last day (${options.toDay}).`,
      'fromDay',
    );
  }
  const [fromMs] = businessDayRange(options.fromDay, options);
  const [, toMs] = businessDayRange(options.toDay, options);
  if (toMs - fromMs > MAX_REPORT_DAYS * 86_400_000 + 3_600_000) {
    throw new ReportError(
      'INVALID_RANGE',
      `A report covers at most ${MAX_REPORT_DAYS} days.`,
      'toDay',
    );
  }
  return { fromMs, toMs };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Local hour (0..23) of instants in [fromMs, toMs). Lagos has one offset all year, so the offset
 * is looked up once; a zone whose offset changes inside the range is looked up per instant.
 */
export function localHourFn(
  fromMs: number,
  toMs: number,
  timeZone: string,
): (epochMs: number) => number {
  const first = zoneOffsetMs(fromMs, timeZone);
  const constant = first === zoneOffsetMs(Math.max(fromMs, toMs - 1), timeZone);
  return (epochMs) => {
    const offset = constant ? first : zoneOffsetMs(epochMs, timeZone);
    return Math.floor(((((epochMs + offset) % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS);
  };
}

/** 'HH:MM' local time, for messages. */
export function localClock(epochMs: number, timeZone: string): string {
  return formatIsoInZone(epochMs, timeZone).slice(11, 16);
}

/** 'YYYY-MM-DD HH:MM' local time, for messages about another day. */
export function localDateTime(epochMs: number, timeZone: string): string {
  return formatIsoInZone(epochMs, timeZone).slice(0, 16).replace('T', ' ');
}

/**
 * formatIsoInZone for many instants of one range: when the zone keeps one offset over the
 * range (Lagos always does) the text is built by date arithmetic instead of Intl per row.
 */
export function isoInZoneFn(
  fromMs: number,
  toMs: number,
  timeZone: string,
): (epochMs: number) => string {
  const first = zoneOffsetMs(fromMs, timeZone);
  if (first !== zoneOffsetMs(Math.max(fromMs, toMs - 1), timeZone) || first % 60_000 !== 0) {
    return (epochMs) => formatIsoInZone(epochMs, timeZone);
  }
  const suffix = /[+-]\d{2}:\d{2}$/.exec(formatIsoInZone(fromMs, timeZone))?.[0] ?? '+00:00';
  return (epochMs) => {
    const text = new Date(epochMs + first).toISOString();
    const ms = text.slice(20, 23);
    return `${text.slice(0, 19)}${ms === '000' ? '' : `.${ms}`}${suffix}`;
  };
}
