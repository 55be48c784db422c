import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ZReportView } from '#shared/views';
import { zReport } from '#support/renderer/fixtures';
import { MIN_VISIBLE_BAR } from './chart-scale';
import { HoursPanel } from './hours-panel';

/** A whole business day (24 hours from the cut-off) with money in the given hours only. */
function day(
  money: Readonly<Record<number, readonly [count: number, amountKobo: number]>>,
  cutoffHour = 0,
): ZReportView {
  const byHour = Array.from({ length: 24 }, (_, i) => {
    const hour = (i + cutoffHour) % 24;
    const [count, amountKobo] = money[hour] ?? [0, 0];
    return { hour, count, amountKobo };
  });
  return zReport({ byHour, cutoffHour });
}

function chart(): SVGSVGElement {
  const svg = screen.getByTestId('hours-chart');
  if (!(svg instanceof SVGSVGElement)) throw new Error('the chart is not an <svg>');
  return svg;
}

/** The drawn height of the bar of `hour`, or null when the hour has no bar. */
function barHeightOf(hour: number): number | null {
  const rect = chart().querySelector(`[data-key="${hour}"] .bar-chart-value`);
  return rect ? Number(rect.getAttribute('height')) : null;
}

describe('Successful by hour', () => {
  it('is a bar chart with an accessible name that sums up the day, and a <title>', () => {
    render(<HoursPanel report={zReport()} />);
    const image = screen.getByRole('img', {
      name: 'Bar chart of successful transfers by hour, 2026-11-22: 42 transfers, ₦123,456.00 over 2 hours. Busiest hour 13:00–14:00 with ₦103,456.00 (32 transfers).',
    });
    expect(image).toBe(chart());
    expect(chart().querySelector('title')?.textContent).toBe('Successful transfers by hour');
    // It can be reached with the keyboard to read the bars.
    expect(chart().getAttribute('tabindex')).toBe('0');
  });

  it('draws each hour in proportion to its amount and nothing for an hour without money', () => {
    render(
      <HoursPanel report={day({ 9: [10, 2_000_000], 13: [32, 10_345_600], 17: [5, 6_000_000] })} />,
    );
    const nine = barHeightOf(9);
    const one = barHeightOf(13);
    const five = barHeightOf(17);
    expect(nine).not.toBeNull();
    expect((one ?? 0) / (nine ?? 1)).toBeCloseTo(10_345_600 / 2_000_000, 5);
    expect((five ?? 0) / (nine ?? 1)).toBeCloseTo(3, 5);
    // The axis tops at ₦120K, the next round figure above the biggest hour (₦103,456).
    expect(one).toBeCloseTo((10_345_600 / 12_000_000) * 160, 5);
    expect(chart().textContent).toContain('₦120K');
    expect(barHeightOf(10)).toBeNull();
    // Every hour of the business day has its slot, in order from the cut-off.
    const keys = [...chart().querySelectorAll('[data-key]')].map((g) => g.getAttribute('data-key'));
    expect(keys).toEqual(Array.from({ length: 24 }, (_, i) => String(i)));
  });

  it('reads from the cut-off hour: a day that starts at 04:00 begins with 04 and ends with 03', () => {
    render(<HoursPanel report={day({ 5: [1, 100_00] }, 4)} />);
    const labels = [...chart().querySelectorAll('.bar-chart-axis-label')].map((t) => t.textContent);
    expect(labels.slice(0, 3)).toEqual(['04', '05', '06']);
    expect(labels.at(-1)).toBe('03');
  });

  it('keeps a small hour visible beside one very big hour', () => {
    render(<HoursPanel report={day({ 8: [1, 50_00], 12: [900, 2_000_000_000_00] })} />);
    expect(barHeightOf(8)).toBe(MIN_VISIBLE_BAR);
    expect(barHeightOf(12)).toBeGreaterThan(100);
    expect(
      screen.getByRole('img', { name: /Busiest hour 12:00–13:00 with ₦2,000,000,000\.00/ }),
    ).toBeTruthy();
  });

  it('says so when the day has no successful transfers, without an empty chart', () => {
    render(<HoursPanel report={day({})} />);
    expect(screen.getByText('No successful transfers.')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('keeps the table of the busy hours beside the chart', () => {
    render(<HoursPanel report={zReport()} />);
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '09:00–10:0010₦20,000.00',
      '13:00–14:0032₦103,456.00',
    ]);
    // Both print: neither sits in a part of the page that printing leaves out.
    expect(chart().closest('.no-print')).toBeNull();
    expect(screen.getByRole('table').closest('.no-print')).toBeNull();
  });

  it('shows an hour’s figures when a bar is pointed at', async () => {
    const user = userEvent.setup();
    render(<HoursPanel report={zReport()} />);
    const readout = screen.getByTestId('hours-chart-readout');
    expect(readout.textContent).toBe('');
    const thirteen = chart().querySelector('[data-key="13"]');
    if (!thirteen) throw new Error('no bar for 13:00');
    await user.hover(thirteen);
    expect(readout.textContent).toBe('13:00–14:00: 32 transfers, ₦103,456.00');
    expect(thirteen.getAttribute('class')).toContain('active');
    await user.unhover(chart());
    expect(readout.textContent).toBe('');
  });

  it('shows the figures on focus and moves through the hours with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<HoursPanel report={zReport()} />);
    const readout = screen.getByTestId('hours-chart-readout');
    expect(readout.getAttribute('aria-live')).toBe('polite');
    await user.tab();
    expect(document.activeElement).toBe(chart());
    // Focus starts on the busiest hour.
    expect(readout.textContent).toBe('13:00–14:00: 32 transfers, ₦103,456.00');
    await user.keyboard('{ArrowLeft}');
    expect(readout.textContent).toBe('10:00–11:00: no successful transfers');
    await user.keyboard('{Home}');
    expect(readout.textContent).toBe('09:00–10:00: 10 transfers, ₦20,000.00');
    await user.keyboard('{ArrowLeft}');
    expect(readout.textContent).toBe('09:00–10:00: 10 transfers, ₦20,000.00');
    await user.keyboard('{End}');
    expect(readout.textContent).toBe('13:00–14:00: 32 transfers, ₦103,456.00');
    await user.tab();
    expect(readout.textContent).toBe('');
  });
});
