import { formatNaira } from '#shared/money';
import { hourLabel } from '#shared/report-words';
import type { AmountTotal, ZReportView } from '#shared/views';
import { BarChart, type ChartBar } from './bar-chart';
import { transfers } from './chart-scale';

type HourTotal = AmountTotal & { readonly hour: number };

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function periodOf(report: Pick<ZReportView, 'fromDay' | 'toDay'>): string {
  return report.fromDay === report.toDay ? report.fromDay : `${report.fromDay} to ${report.toDay}`;
}

/** The chart's accessible name: the day's total and its busiest hour, in one sentence or two. */
export function hoursSummary(
  report: Pick<ZReportView, 'fromDay' | 'toDay'>,
  hours: readonly HourTotal[],
): string {
  const busy = hours.filter((row) => row.count > 0);
  const count = busy.reduce((sum, row) => sum + row.count, 0);
  const amount = busy.reduce((sum, row) => sum + row.amountKobo, 0);
  const head = `Bar chart of successful transfers by hour, ${periodOf(report)}`;
  const best = busy.reduce<HourTotal | null>(
    (top, row) => (top === null || row.amountKobo > top.amountKobo ? row : top),
    null,
  );
  if (!best) return `${head}: no successful transfers.`;
  const total = `${transfers(count)}, ${formatNaira(amount)}`;
  if (busy.length === 1) return `${head}: ${total}, all in the hour ${hourLabel(best.hour)}.`;
  return `${head}: ${total} over ${busy.length} hours. Busiest hour ${hourLabel(best.hour)} with ${formatNaira(best.amountKobo)} (${transfers(best.count)}).`;
}

export function hourBars(hours: readonly HourTotal[]): readonly ChartBar[] {
  return hours.map((row) => ({
    key: String(row.hour),
    axisLabel: two(row.hour),
    valueKobo: row.amountKobo,
    readout:
      row.count === 0
        ? `${hourLabel(row.hour)}: no successful transfers`
        : `${hourLabel(row.hour)}: ${transfers(row.count)}, ${formatNaira(row.amountKobo)}`,
  }));
}

/**
 * "Successful by hour": the day's hours as bars in business-day order (a day that starts at
 * 04:00 reads 04 ... 03), with the table of the busy hours beside it, for reading and printing.
 */
export function HoursPanel({ report }: { readonly report: ZReportView }) {
  const busyHours = report.byHour.filter((row) => row.count > 0);
  return (
    <section className="panel" aria-labelledby="by-hour-heading">
      <h3 id="by-hour-heading">Successful by hour</h3>
      {busyHours.length === 0 ? (
        <p className="muted">No successful transfers.</p>
      ) : (
        <div className="chart-panel-body">
          <BarChart
            title="Successful transfers by hour"
            summary={hoursSummary(report, report.byHour)}
            bars={hourBars(report.byHour)}
            testId="hours-chart"
            slotWidth={28}
          />
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Hour</th>
                <th scope="col">Transfers</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {busyHours.map((row) => (
                <tr key={row.hour}>
                  <td>{hourLabel(row.hour)}</td>
                  <td className="num">{row.count}</td>
                  <td className="num">{formatNaira(row.amountKobo)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
