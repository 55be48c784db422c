import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChannelInput } from '#shared/bridge/contract';
import type { TrendView } from '#shared/views';
import { BridgeProvider } from '../../../bridge-context';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import { fail, ok, zReport } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { TrendPanel } from './trend-panel';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Shop and this-till takings (naira) of the seven days ending 2026-11-22; the 18th is empty. */
const WEEK: readonly (readonly [day: string, shop: number, thisTill: number])[] = [
  ['2026-11-16', 40_000, 30_000],
  ['2026-11-17', 20_000, 20_000],
  ['2026-11-18', 0, 0],
  ['2026-11-19', 80_000, 10_000],
  ['2026-11-20', 120_000, 60_000],
  ['2026-11-21', 10_000, 0],
  ['2026-11-22', 60_000, 40_000],
];

function trendView(week = WEEK, toDay = '2026-11-22'): TrendView {
  return {
    fromDay: week[0]?.[0] ?? toDay,
    toDay,
    timeZone: 'Africa/Lagos',
    cutoffHour: 0,
    tillId: 'till-1',
    days: week.map(([day, shop, thisTill]) => ({
      day,
      // One transfer per ₦10,000: counts that differ from day to day.
      shop: { count: shop / 10_000, amountKobo: shop * 100 },
      thisTill: { count: thisTill / 10_000, amountKobo: thisTill * 100 },
    })),
    generatedAt: Date.UTC(2026, 10, 22, 12),
  };
}

function renderTrend(bridge: FakeBridge, day = '2026-11-22', reloadKey = 0) {
  return render(
    <BridgeProvider bridge={bridge}>
      <TrendPanel day={day} reloadKey={reloadKey} />
    </BridgeProvider>,
  );
}

function heightOf(svg: Element, day: string, part: 'whole' | 'part'): number | null {
  const rect = svg.querySelector(`[data-key="${day}"] .bar-chart-${part}`);
  return rect ? Number(rect.getAttribute('height')) : null;
}

describe('the seven-day trend', () => {
  it("asks for the week ending on the report's day and names the chart with its totals", async () => {
    const bridge = createFakeBridge();
    bridge.getTrend.mockImplementation(() => ok(trendView()));
    renderTrend(bridge);
    const chart = await screen.findByRole('img', {
      name: 'Bar chart of successful transfers on the 7 days to Sunday 22 November 2026: the whole shop took ₦330,000.00 in 33 transfers, this till ₦160,000.00 in 16 transfers. Best day Friday 20 November 2026, with ₦120,000.00 for the shop.',
    });
    expect(bridge.getTrend).toHaveBeenCalledWith({ day: '2026-11-22' });
    expect(chart.querySelector('title')?.textContent).toBe('Successful transfers per day');
    expect(screen.getByRole('heading', { name: 'Seven days to Sun 22 Nov' })).toBeTruthy();
  });

  it("draws each day's shop takings in proportion, this till's part inside, and nothing on an empty day", async () => {
    const bridge = createFakeBridge();
    bridge.getTrend.mockImplementation(() => ok(trendView()));
    renderTrend(bridge);
    const chart = await screen.findByTestId('trend-chart');
    const labels = [...chart.querySelectorAll('.bar-chart-axis-label')].map((t) => t.textContent);
    expect(labels).toEqual(['Mon 16', 'Tue 17', 'Wed 18', 'Thu 19', 'Fri 20', 'Sat 21', 'Sun 22']);
    // The axis tops at ₦120K: Friday fills the plot, Thursday two thirds of it.
    expect(heightOf(chart, '2026-11-20', 'whole')).toBe(160);
    expect(heightOf(chart, '2026-11-19', 'whole')).toBeCloseTo(160 * (80 / 120), 5);
    expect(heightOf(chart, '2026-11-20', 'part')).toBeCloseTo(80, 5);
    // This till's part never outgrows the shop's bar; a day this till took nothing has no part.
    expect(heightOf(chart, '2026-11-17', 'part')).toBe(heightOf(chart, '2026-11-17', 'whole'));
    expect(heightOf(chart, '2026-11-21', 'part')).toBeNull();
    expect(heightOf(chart, '2026-11-21', 'whole')).toBeGreaterThan(0);
    expect(heightOf(chart, '2026-11-18', 'whole')).toBeNull();
    expect(heightOf(chart, '2026-11-18', 'part')).toBeNull();
  });

  it('has the same figures as a table, and in the readout when a day is pointed at', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.getTrend.mockImplementation(() => ok(trendView()));
    renderTrend(bridge);
    const table = await screen.findByTestId('trend-table');
    const rows = within(table).getAllByRole('row').slice(2);
    expect(rows).toHaveLength(7);
    expect(within(rows[4] as HTMLElement).getByRole('rowheader').textContent).toBe('Fri 20 Nov');
    expect(
      within(rows[4] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['6', '₦60,000.00', '12', '₦120,000.00']);
    expect(rows[2]?.textContent).toBe('Wed 18 Nov0₦0.000₦0.00');

    const friday = screen.getByTestId('trend-chart').querySelector('[data-key="2026-11-20"]');
    if (!friday) throw new Error('no bar for Friday');
    await user.hover(friday);
    expect(screen.getByTestId('trend-chart-readout').textContent).toBe(
      'Fri 20 Nov: whole shop 12 transfers, ₦120,000.00; this till 6 transfers, ₦60,000.00',
    );
    const wednesday = screen.getByTestId('trend-chart').querySelector('[data-key="2026-11-18"]');
    if (!wednesday) throw new Error('no slot for Wednesday');
    await user.hover(wednesday);
    expect(screen.getByTestId('trend-chart-readout').textContent).toBe(
      'Wed 18 Nov: whole shop nothing; this till nothing',
    );
  });

  it('says so when no day of the week took anything, without an empty chart', async () => {
    const bridge = createFakeBridge();
    bridge.getTrend.mockImplementation(() =>
      ok(trendView(WEEK.map(([day]) => [day, 0, 0] as const))),
    );
    renderTrend(bridge);
    expect(await screen.findByText('No successful transfers on these days.')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says why when the trend cannot be had, and asks again when the report reloads', async () => {
    const bridge = createFakeBridge();
    bridge.getTrend.mockImplementationOnce(() => fail('FORBIDDEN', 'owner only'));
    bridge.getTrend.mockImplementation(() => ok(trendView()));
    const { rerender } = renderTrend(bridge);
    expect(
      await screen.findByText(/^The trend could not be shown: Only the owner can do this/),
    ).toBeTruthy();
    rerender(
      <BridgeProvider bridge={bridge}>
        <TrendPanel day="2026-11-22" reloadKey={1} />
      </BridgeProvider>,
    );
    expect(await screen.findByTestId('trend-chart')).toBeTruthy();
    expect(screen.queryByText(/could not be shown/)).toBeNull();
    expect(bridge.getTrend).toHaveBeenCalledTimes(2);
  });
});

describe('the report screen', () => {
  function reportBridge(): FakeBridge {
    const bridge = createFakeBridge();
    bridge.getZReport.mockImplementation((input: ChannelInput<'getZReport'>) =>
      ok(zReport({ fromDay: input.day ?? '2026-11-22', toDay: input.day ?? '2026-11-22' })),
    );
    bridge.getTrend.mockImplementation((input: ChannelInput<'getTrend'>) =>
      ok(trendView(WEEK, input.day ?? '2026-11-22')),
    );
    bridge.listTransactions.mockImplementation(() => ok({ rows: [], total: 0 }));
    return bridge;
  }

  it('shows the hours chart and the seven-day trend, each with its table', async () => {
    renderApp(reportBridge(), '#/report');
    const hours = await screen.findByRole('img', {
      name: /^Bar chart of successful transfers by hour, 2026-11-22/,
    });
    const trend = await screen.findByRole('img', {
      name: /^Bar chart of successful transfers on the 7 days to Sunday 22 November 2026/,
    });
    expect(hours.closest('section')?.querySelector('table')).toBeTruthy();
    expect(trend.closest('section')?.querySelector('table')).toBeTruthy();
    // The trend sits under the hours, as the day's story goes on to the week's.
    expect(hours.compareDocumentPosition(trend) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('follows the chosen day: the trend ends on the day the report shows', async () => {
    const bridge = reportBridge();
    renderApp(bridge, '#/report');
    await screen.findByTestId('trend-chart');
    expect(bridge.getTrend).toHaveBeenLastCalledWith({ day: '2026-11-22' });
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2026-11-20' } });
    await waitFor(() => expect(bridge.getTrend).toHaveBeenLastCalledWith({ day: '2026-11-20' }));
    expect(await screen.findByRole('heading', { name: 'Seven days to Fri 20 Nov' })).toBeTruthy();
  });
});
