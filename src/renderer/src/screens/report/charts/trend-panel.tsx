import { formatNaira } from '#shared/money';
import type { TrendDayView, TrendView } from '#shared/views';
import { BarChart, type ChartBar } from './bar-chart';
import { transfers } from './chart-scale';
import { useTrend } from './use-trend';

/** A business day is a calendar date, not an instant: it is named in UTC so no zone shifts it. */
function dateOf(day: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1));
}

const WEEKDAY = new Intl.DateTimeFormat('en-NG', { weekday: 'short', timeZone: 'UTC' });
const MONTH = new Intl.DateTimeFormat('en-NG', { month: 'short', timeZone: 'UTC' });
const LONG = new Intl.DateTimeFormat('en-NG', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "Sun 22", under a bar. */
export function shortDay(day: string): string {
  const date = dateOf(day);
  return `${WEEKDAY.format(date)} ${date.getUTCDate()}`;
}

/** "Sun 22 Nov", in the readout and the table. */
export function mediumDay(day: string): string {
  return `${shortDay(day)} ${MONTH.format(dateOf(day))}`;
}

function longDay(day: string): string {
  return LONG.format(dateOf(day)).replace(',', '');
}

function figures(total: TrendDayView['shop']): string {
  return total.count === 0
    ? 'nothing'
    : `${transfers(total.count)}, ${formatNaira(total.amountKobo)}`;
}

/** The chart's accessible name: the week's totals and its best day. */
export function trendSummary(trend: TrendView): string {
  const sum = (pick: (day: TrendDayView) => number) =>
    trend.days.reduce((acc, day) => acc + pick(day), 0);
  const shop = { count: sum((d) => d.shop.count), amountKobo: sum((d) => d.shop.amountKobo) };
  const till = {
    count: sum((d) => d.thisTill.count),
    amountKobo: sum((d) => d.thisTill.amountKobo),
  };
  const head = `Bar chart of successful transfers on the ${trend.days.length} days to ${longDay(trend.toDay)}`;
  if (shop.count === 0) return `${head}: none.`;
  const best = trend.days.reduce((top, day) =>
    day.shop.amountKobo > top.shop.amountKobo ? day : top,
  );
  return `${head}: the whole shop took ${formatNaira(shop.amountKobo)} in ${transfers(shop.count)}, this till ${formatNaira(till.amountKobo)} in ${transfers(till.count)}. Best day ${longDay(best.day)}, with ${formatNaira(best.shop.amountKobo)} for the shop.`;
}

export function trendBars(trend: TrendView): readonly ChartBar[] {
  return trend.days.map((day) => ({
    key: day.day,
    axisLabel: shortDay(day.day),
    valueKobo: day.shop.amountKobo,
    partKobo: day.thisTill.amountKobo,
    readout: `${mediumDay(day.day)}: whole shop ${figures(day.shop)}; this till ${figures(day.thisTill)}`,
  }));
}

function TrendTable({ trend }: { readonly trend: TrendView }) {
  return (
    <table className="data-table" data-testid="trend-table">
      <thead>
        <tr>
          <th scope="col" rowSpan={2}>
            Day
          </th>
          <th scope="colgroup" colSpan={2}>
            This till
          </th>
          <th scope="colgroup" colSpan={2}>
            Whole shop
          </th>
        </tr>
        <tr>
          <th scope="col">Transfers</th>
          <th scope="col">Amount</th>
          <th scope="col">Transfers</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        {trend.days.map((day) => (
          <tr key={day.day}>
            <th scope="row">{mediumDay(day.day)}</th>
            <td className="num">{day.thisTill.count}</td>
            <td className="num">{formatNaira(day.thisTill.amountKobo)}</td>
            <td className="num">{day.shop.count}</td>
            <td className="num">{formatNaira(day.shop.amountKobo)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The seven business days ending on the report's day: the whole shop's takings per day as
 * bars, this till's part of each drawn solid inside it, and the same figures as a table.
 */
export function TrendPanel({
  day,
  reloadKey,
}: {
  readonly day: string;
  readonly reloadKey: number;
}) {
  const { trend, error } = useTrend(day, reloadKey);

  const empty = trend !== null && trend.days.every((d) => d.shop.count === 0);
  return (
    <section className="panel" aria-labelledby="trend-heading" data-testid="trend-panel">
      <h3 id="trend-heading">Seven days to {mediumDay(day)}</h3>
      {error && <p className="muted">The trend could not be shown: {error}</p>}
      {empty && <p className="muted">No successful transfers on these days.</p>}
      {trend && !empty && (
        <>
          <ul className="chart-legend" aria-hidden="true">
            <li>
              <span className="chart-legend-swatch part" />
              This till
            </li>
            <li>
              <span className="chart-legend-swatch whole" />
              Whole shop (all tills and standing accounts)
            </li>
          </ul>
          <div className="chart-panel-body">
            <BarChart
              title="Successful transfers per day"
              summary={trendSummary(trend)}
              bars={trendBars(trend)}
              testId="trend-chart"
              slotWidth={80}
            />
            <TrendTable trend={trend} />
          </div>
        </>
      )}
    </section>
  );
}
