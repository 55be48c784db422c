import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ShopTotalsView } from '#shared/views';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { ok, zReport } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { ShopTotals } from './shop-totals';

const SHOP: ShopTotalsView = {
  tillId: 'till-a7k2',
  tillPrefix: 'TILLA7K2',
  thisTill: { count: 2, amountKobo: 400_000 },
  otherTills: [
    { tillPrefix: 'TILLB9Q3', count: 2, amountKobo: 1_000_000 },
    { tillPrefix: 'TILLC4X8', count: 1, amountKobo: 70_000 },
  ],
  standingAccounts: { count: 2, amountKobo: 50_000 },
  shopTotal: { count: 7, amountKobo: 1_520_000 },
  notOurs: { count: 1, amountKobo: 500_000 },
};

const text = (id: string) => screen.getByTestId(id).textContent;

describe('the shop view of the report', () => {
  it('shows this till, other tills of this shop (each by prefix), standing accounts and the total', () => {
    render(<ShopTotals shop={SHOP} />);
    expect([text('report-this-till-count'), text('report-this-till-amount')]).toEqual([
      '2',
      '₦4,000.00',
    ]);
    expect([text('report-other-tills-count'), text('report-other-tills-amount')]).toEqual([
      '3',
      '₦10,700.00',
    ]);
    expect([text('report-counter-count'), text('report-counter-amount')]).toEqual(['2', '₦500.00']);
    expect([text('report-shop-total-count'), text('report-shop-total-amount')]).toEqual([
      '7',
      '₦15,200.00',
    ]);
    const rows = within(screen.getByTestId('report-shop'))
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'Made byTransfersAmount',
      'This till · till-a7k22₦4,000.00',
      'Other tills of this shop3₦10,700.00',
      'Till TILLB9Q3 · another till of this shop2₦10,000.00',
      'Till TILLC4X8 · another till of this shop1₦700.00',
      'Standing accounts2₦500.00',
      'Shop total7₦15,200.00',
    ]);
    // The reference codes are the provider's business, not words for the shop.
    expect(screen.getByTestId('report-shop').textContent).not.toMatch(/references/);
    expect([text('report-not-ours-count'), text('report-not-ours-amount')]).toEqual([
      '1',
      '₦5,000.00',
    ]);
    expect(screen.getByText(/Not made by any till of this shop/).textContent).toMatch(
      /listed under "Needs a person"/,
    );
  });

  it('names a till that is a counter paired to this hub by its name', () => {
    const [counter, other] = SHOP.otherTills;
    if (!counter || !other) throw new Error('two other tills expected');
    render(
      <ShopTotals
        shop={{ ...SHOP, otherTills: [{ ...counter, counterName: 'Front counter' }, other] }}
      />,
    );
    const rows = within(screen.getByTestId('report-shop'))
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toContain('Front counter · counter paired here2₦10,000.00');
    expect(rows).toContain('Till TILLC4X8 · another till of this shop1₦700.00');
  });

  it("says so when no other till was paid and all the money is the shop's", () => {
    render(<ShopTotals shop={{ ...SHOP, otherTills: [], notOurs: { count: 0, amountKobo: 0 } }} />);
    expect(text('report-other-tills-count')).toBe('0');
    expect(screen.getByText(/No other till of this shop was paid/)).toBeTruthy();
    expect(screen.queryByText(/Needs a person/)).toBeNull();
  });

  it('is part of the report screen, under the merchant-wide headline', async () => {
    const bridge = createFakeBridge();
    bridge.getZReport.mockImplementation(() => ok(zReport({ shop: SHOP })));
    bridge.listTransactions.mockImplementation(() => ok({ rows: [], total: 0 }));
    renderApp(bridge, '#/report');
    expect((await screen.findByTestId('report-shop-total-amount')).textContent).toBe('₦15,200.00');
    expect(screen.getByText('Successful (all tills and accounts)')).toBeTruthy();
    expect(
      screen.getByRole('heading', { name: 'Successful transfers by till of this shop' }),
    ).toBeTruthy();
  });
});
