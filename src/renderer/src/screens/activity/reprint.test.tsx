import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReceiptView } from '#shared/views';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { fail, ok, sale, T0 } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

function receiptOf(saleId: number): ReceiptView {
  return {
    shopName: 'Mama Put Stores',
    saleId,
    state: 'paid',
    amountKobo: 150_000,
    accountNumber: '0123456789',
    accountName: null,
    bank: 'Wema Bank',
    reference: `TT-00${saleId}`,
    sessionId: '100004261122090000123456789012',
    createdAt: T0,
    paidAt: T0 + 60_000,
    cashier: 'Ada',
    tillId: 'till-1',
    timeZone: 'Africa/Lagos',
  };
}

function withSales() {
  const bridge = createFakeBridge();
  bridge.getActivity.mockImplementation(() =>
    ok({
      sales: [
        sale({ id: 7, state: 'paid', createdAt: T0 }),
        sale({ id: 8, state: 'expired', createdAt: T0 }),
        sale({ id: 9, state: 'paid_late', createdAt: T0 }),
      ],
      inflows: [],
      alerts: [],
      standingAccounts: [],
    }),
  );
  bridge.getReceipt.mockImplementation(({ saleId }) => ok(receiptOf(saleId)));
  return bridge;
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.classList.remove('printing-receipt');
});

describe('reprinting a receipt from Activity', () => {
  it('offers Reprint on paid sales and opens the print view in the browser', async () => {
    const user = userEvent.setup();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const bridge = withSales();
    renderApp(bridge, '#/activity');
    const table = await screen.findByTestId('activity-sales');
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[1]!).getByRole('button', { name: 'Reprint receipt of sale #7' }),
    ).toBeTruthy();
    // An expired sale was never paid: there is no receipt to print.
    expect(within(rows[2]!).queryByRole('button')).toBeNull();
    expect(
      within(rows[3]!).getByRole('button', { name: 'Reprint receipt of sale #9' }),
    ).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Reprint receipt of sale #7' }));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    expect(bridge.getReceipt).toHaveBeenCalledWith({ saleId: 7 });
    expect(bridge.printReceipt.mock.calls[0]?.[0]).toMatchObject({ saleId: 7 });
    // The printed copy is that sale's receipt, alone on the page while the dialog is open.
    const sheet = document.querySelector('.receipt-sheet');
    expect(sheet?.textContent).toContain('Sale #7');
    expect(sheet?.textContent).toContain('₦1,500.00');
    expect(document.body.classList.contains('printing-receipt')).toBe(true);
    window.dispatchEvent(new Event('afterprint'));
    expect(document.body.classList.contains('printing-receipt')).toBe(false);
  });

  it('prints straight to the saved printer in the desktop app', async () => {
    const user = userEvent.setup();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const bridge = withSales();
    bridge.getPrintSetup.mockImplementation(() =>
      ok({ paperWidthMm: 58, printerName: 'XP-58', silent: true }),
    );
    bridge.printReceipt.mockImplementation(() => {
      expect(document.querySelector('.receipt-sheet .receipt-58')?.textContent).toContain(
        'Sale #9',
      );
      return ok({ mode: 'silent', printerName: 'XP-58' });
    });
    renderApp(bridge, '#/activity');
    await user.click(await screen.findByRole('button', { name: 'Reprint receipt of sale #9' }));
    expect(await screen.findByText('Receipt printed on XP-58.')).toBeTruthy();
    expect(print).not.toHaveBeenCalled();
    expect(document.body.classList.contains('printing-receipt')).toBe(false);
  });

  it('reprints any earlier receipt by its sale number, and says why one cannot be printed', async () => {
    const user = userEvent.setup();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const bridge = withSales();
    renderApp(bridge, '#/activity');
    const field = await screen.findByRole('textbox', { name: 'Sale number' });
    const button = screen.getByRole('button', { name: 'Reprint receipt' });

    await user.type(field, 'twelve');
    await user.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Enter the sale number from the receipt, e.g. 12',
    );
    expect(bridge.getReceipt).not.toHaveBeenCalled();

    // A sale from an earlier day: not in today's list, printed all the same.
    await user.clear(field);
    await user.type(field, '#3');
    await user.click(button);
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    expect(bridge.getReceipt).toHaveBeenCalledWith({ saleId: 3 });
    expect(screen.queryByRole('alert')).toBeNull();
    window.dispatchEvent(new Event('afterprint'));

    // Main refuses (a cashier asking for another cashier's sale, a sale that does not exist).
    bridge.getReceipt.mockImplementation(() => fail('SALE_NOT_FOUND', 'Sale 404 not found'));
    await user.clear(field);
    await user.type(field, '404');
    await user.click(button);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This sale could not be found.',
    );
    expect(print).toHaveBeenCalledTimes(1);
    expect(bridge.printReceipt).toHaveBeenCalledTimes(1);
  });
});
