/** The arithmetic of the report's bar charts: pure, so that the tests can hold it to account. */
import { countOf } from '#shared/plural';

/** Steps of a readable axis top: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten. */
const STEPS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10] as const;

/**
 * The top of the value axis: the smallest readable round number at or above `max` (so the
 * tallest bar nearly fills the chart and the halfway line is a round figure too).
 */
export function axisTop(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = STEPS.find((s) => s * power >= max) ?? 10;
  // 1.2 * 1e5 in floating point is 120000.00000000001: round to the step's own precision.
  return Number((step * power).toPrecision(3));
}

/** Bars with any money on them stay visible next to one very big hour (a sliver, not nothing). */
export const MIN_VISIBLE_BAR = 2;

/**
 * A bar's height for `value` on an axis topped at `top` over `plotHeight` units: proportional,
 * except that a bar with any value is at least MIN_VISIBLE_BAR tall and none passes the top.
 */
export function barHeight(value: number, top: number, plotHeight: number): number {
  if (!(value > 0) || !(top > 0)) return 0;
  const height = (value / top) * plotHeight;
  return Math.min(plotHeight, Math.max(MIN_VISIBLE_BAR, height));
}

const shortNaira = new Intl.NumberFormat('en-NG', {
  style: 'currency',
  currency: 'NGN',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

/** Kobo as a short axis label: 12_000_000 -> "₦120K" (the tables carry the exact amounts). */
export function formatNairaShort(kobo: number): string {
  return shortNaira.format(kobo / 100);
}

/** "1 transfer", "32 transfers". */
export function transfers(count: number): string {
  return countOf(count, 'transfer');
}
