import { AppError, type AppErrorCode } from './errors';

/**
 * Provider timestamps carry no zone ('2026-11-22 09:05:00'); they are wall-clock time in the
 * provider's zone, Africa/Lagos unless settings say otherwise. Everything here goes through Intl
 * so that any IANA zone works, daylight saving included, without a time-zone library.
 */

export const DEFAULT_PROVIDER_TIME_ZONE = 'Africa/Lagos';

/** A provider timestamp ('YYYY-MM-DD HH:MM:SS', no fractions) names a moment within this span. */
export const PROVIDER_TIMESTAMP_PRECISION_MS = 1_000;

export type ProviderTimeErrorCode = Extract<
  AppErrorCode,
  'MALFORMED_TIMESTAMP' | 'IMPOSSIBLE_DATE' | 'INVALID_TIME_ZONE' | 'INVALID_OPTION'
>;

export class ProviderTimeError extends AppError<ProviderTimeErrorCode> {
  constructor(code: ProviderTimeErrorCode, message: string) {
    super(code, message);
    this.name = 'ProviderTimeError';
  }
}

export interface BusinessDayOptions {
  /** IANA zone of the shop; default Africa/Lagos. */
  readonly timeZone?: string;
  /** Local hour (0..23) at which a business day starts; default 0 (midnight). */
  readonly cutoffHour?: number;
}

interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  const cached = formatters.get(timeZone);
  if (cached) return cached;
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    throw new ProviderTimeError(
      'INVALID_TIME_ZONE',
      `Unknown time zone: ${JSON.stringify(timeZone)}`,
    );
  }
  formatters.set(timeZone, formatter);
  return formatter;
}

/** Throws ProviderTimeError INVALID_TIME_ZONE unless Intl knows the zone. */
export function assertTimeZone(timeZone: string): void {
  formatterFor(timeZone);
}

function wallTimeAt(epochMs: number, timeZone: string): WallTime {
  const parts = formatterFor(timeZone).formatToParts(epochMs);
  const get = (type: Intl.DateTimeFormatPartTypes): number => {
    const part = parts.find((p) => p.type === type);
    return part ? Number(part.value) : Number.NaN;
  };
  const era = parts.find((p) => p.type === 'era')?.value;
  const year = get('year');
  return {
    // 'BC' years count backwards from 1 BC = year 0.
    year: era === 'BC' ? 1 - year : year,
    month: get('month'),
    day: get('day'),
    hour: get('hour') % 24,
    minute: get('minute'),
    second: get('second'),
  };
}

/** The wall time read as if it were UTC: the arithmetic base for offsets. */
function wallAsUtc(wall: WallTime): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, 0);
  return date.getTime();
}

const QUARTER_HOUR_MS = 15 * 60_000;
const offsetCache = new Map<string, number>();

/**
 * Offset of the zone from UTC at an instant, in ms (Lagos: +3_600_000). Zones change offset only
 * at quarter-hour instants, so the answer is memoised per zone and quarter hour: Intl is slow
 * (tens of microseconds a call), and a sync parses a date for every one of 100,000 rows. (Every
 * transition since 1970 falls on a quarter hour; older local-mean-time changes may not.)
 */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
  const bucket = Math.floor(epochMs / QUARTER_HOUR_MS);
  const key = `${timeZone}|${bucket}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const start = bucket * QUARTER_HOUR_MS;
  const offset = wallAsUtc(wallTimeAt(start, timeZone)) - start;
  if (offsetCache.size >= 50_000) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

/**
 * Wall time in a zone to an instant. Where the wall time is ambiguous (clocks go back) the
 * earlier instant wins; where it does not exist (clocks go forward) it is read with the offset
 * before the change, i.e. moved forward: Temporal's 'compatible' choice. Lagos has neither.
 */
function wallToEpoch(wall: WallTime, timeZone: string): number {
  const local = wallAsUtc(wall);
  const before = zoneOffsetMs(local - DAY_MS, timeZone);
  const after = zoneOffsetMs(local + DAY_MS, timeZone);
  const candidates = [local - before, local - after].filter(
    (t) => t + zoneOffsetMs(t, timeZone) === local,
  );
  if (candidates.length > 0) return Math.min(...candidates);
  return local - before;
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one; setUTCFullYear keeps years < 100 as is.
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

function checkWall(wall: WallTime, text: string): void {
  const { year, month, day, hour, minute, second } = wall;
  if (
    year < 1 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw new ProviderTimeError('IMPOSSIBLE_DATE', `No such date or time: ${JSON.stringify(text)}`);
  }
}

/**
 * Parses 'YYYY-MM-DD HH:MM:SS' as wall time in `timeZone` (default Africa/Lagos) to epoch ms.
 * Throws ProviderTimeError on any other text (no 'T', no zone, no fractions) and on impossible
 * dates such as 2026-02-30 or 24:00:00.
 */
export function parseProviderTimestamp(
  text: string,
  timeZone: string = DEFAULT_PROVIDER_TIME_ZONE,
): number {
  assertTimeZone(timeZone);
  const match = TIMESTAMP.exec(text);
  if (!match) {
    throw new ProviderTimeError(
      'MALFORMED_TIMESTAMP',
      `Timestamp is not in the form YYYY-MM-DD HH:MM:SS: ${JSON.stringify(text.slice(0, 40))}`,
    );
  }
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const wall: WallTime = {
    year: y ?? Number.NaN,
    month: mo ?? Number.NaN,
    day: d ?? Number.NaN,
    hour: h ?? Number.NaN,
    minute: mi ?? Number.NaN,
    second: s ?? Number.NaN,
  };
  checkWall(wall, text);
  return wallToEpoch(wall, timeZone);
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

function assertEpoch(epochMs: number): void {
  if (!Number.isFinite(epochMs) || Math.abs(epochMs) > 8.64e15) {
    throw new ProviderTimeError('INVALID_OPTION', `Not a valid instant: ${epochMs}`);
  }
}

function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const total = Math.round(Math.abs(offsetMs) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  // Second-level offsets only exist in historical local mean time; ISO 8601 allows ±hh:mm:ss.
  return `${sign}${pad(hours)}:${pad(minutes)}${seconds ? `:${pad(seconds)}` : ''}`;
}

/**
 * Epoch ms as ISO 8601 with the zone's offset: '2026-11-22T09:05:00+01:00'. UTC is written
 * '+00:00' (not 'Z') so every value has the same shape. Milliseconds appear only when non-zero.
 */
export function formatIsoInZone(
  epochMs: number,
  timeZone: string = DEFAULT_PROVIDER_TIME_ZONE,
): string {
  assertEpoch(epochMs);
  const wall = wallTimeAt(epochMs, timeZone);
  const ms = ((epochMs % 1000) + 1000) % 1000;
  const fraction = ms ? `.${pad(ms, 3)}` : '';
  return `${formatDay(wall)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${fraction}${formatOffset(zoneOffsetMs(epochMs, timeZone))}`;
}

/** Epoch ms in the provider's own form 'YYYY-MM-DD HH:MM:SS' (wall time in the zone). */
export function formatProviderTimestamp(
  epochMs: number,
  timeZone: string = DEFAULT_PROVIDER_TIME_ZONE,
): string {
  assertEpoch(epochMs);
  const wall = wallTimeAt(epochMs, timeZone);
  return `${formatDay(wall)} ${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`;
}

function formatDay(wall: Pick<WallTime, 'year' | 'month' | 'day'>): string {
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

function resolveDayOptions(options: BusinessDayOptions): {
  timeZone: string;
  cutoffHour: number;
} {
  const timeZone = options.timeZone ?? DEFAULT_PROVIDER_TIME_ZONE;
  const cutoffHour = options.cutoffHour ?? 0;
  assertTimeZone(timeZone);
  if (!Number.isInteger(cutoffHour) || cutoffHour < 0 || cutoffHour > 23) {
    throw new ProviderTimeError(
      'INVALID_OPTION',
      `Cut-off hour must be a whole hour from 0 to 23, got ${cutoffHour}`,
    );
  }
  return { timeZone, cutoffHour };
}

/**
 * The business day ('YYYY-MM-DD') an instant belongs to, for a day that starts at `cutoffHour`
 * local time: with cut-off 4, 03:59 on the 23rd belongs to the 22nd. Computed on the wall
 * clock, so a daylight-saving change shifts nothing.
 */
export function businessDay(epochMs: number, options: BusinessDayOptions = {}): string {
  const { timeZone, cutoffHour } = resolveDayOptions(options);
  assertEpoch(epochMs);
  const shifted = new Date(wallAsUtc(wallTimeAt(epochMs, timeZone)) - cutoffHour * HOUR_MS);
  return formatDay({
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
  });
}

/**
 * The instants [startMs, endMs) of a business day: from its cut-off hour to the next day's.
 * The range is 24 h long except across a daylight-saving change.
 */
export function businessDayRange(
  day: string,
  options: BusinessDayOptions = {},
): readonly [startMs: number, endMs: number] {
  const { timeZone, cutoffHour } = resolveDayOptions(options);
  const match = DAY.exec(day);
  if (!match) {
    throw new ProviderTimeError(
      'MALFORMED_TIMESTAMP',
      `Day is not in the form YYYY-MM-DD: ${JSON.stringify(day.slice(0, 40))}`,
    );
  }
  const [, y, m, d] = match.map(Number);
  const start: WallTime = {
    year: y ?? Number.NaN,
    month: m ?? Number.NaN,
    day: d ?? Number.NaN,
    hour: cutoffHour,
    minute: 0,
    second: 0,
  };
  checkWall(start, day);
  const next = new Date(wallAsUtc(start) + DAY_MS);
  const end: WallTime = {
    year: next.getUTCFullYear(),
    month: next.getUTCMonth() + 1,
    day: next.getUTCDate(),
    hour: cutoffHour,
    minute: 0,
    second: 0,
  };
  return [wallToEpoch(start, timeZone), wallToEpoch(end, timeZone)];
}
