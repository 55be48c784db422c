import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RefundOwed, SaleView } from '#shared/sales';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { ok, sale } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

const SESSION_PAID = '100004250101120000000000000001';
const SESSION_AGAIN = '100004250101120500000000000002';
const DETAILS = `CUSTOMER PAID TWICE: sale #7 (₦1,500.00) was already paid by transfer ${SESSION_PAID}, and the provider also accepted ₦3,000.00 into its account (session ${SESSION_AGAIN}).`;

function refund(overrides: Partial<RefundOwed> = {}): RefundOwed {
  return {
    alertId: 41,
    amountKobo: 300_000,
    sessionId: SESSION_AGAIN,
    details: DETAILS,
    ...overrides,
  };
}

const paid = (overrides: Partial<SaleView> = {}) =>
  sale({ state: 'paid', paidAt: Date.now(), paidSessionId: SESSION_PAID, ...overrides });

/** A sale on screen, paid, then paid again: the event that says a refund is owed. */
async function paidThenTwice() {
  const user = userEvent.setup();
  const bridge = createFakeBridge();
  bridge.createSale.mockImplementation(() => ok(sale()));
  renderApp(bridge);
  await user.type(screen.getByRole('textbox', { name: /Amount/ }), '1500{Enter}');
  await screen.findByTestId('sale-status');
  act(() => bridge.emit({ type: 'sale-changed', payload: paid({ updatedAt: Date.now() + 1 }) }));
  await screen.findByText('Paid');
  act(() =>
    bridge.emit({
      type: 'sale-changed',
      payload: paid({ updatedAt: Date.now() + 2, refundsOwed: [refund()] }),
    }),
  );
  await screen.findByTestId('paid-twice-notice');
  return { user, bridge };
}

describe('a sale paid twice', () => {
  it('says the refund in red words, big, with the transfers behind "Details"', async () => {
    await paidThenTwice();
    const status = screen.getByTestId('sale-status');
    expect(status.className).toContain('status-refund-owed');
    expect(status.textContent).toMatch(/^Refund ₦3,000\.00 to this customer/);
    expect(status.textContent).not.toContain('✓');
    const details = screen.getByText('Details').closest('details');
    expect(details?.open).toBe(false);
    // The 30-digit ids only inside the closed disclosure, not on the face of the sale.
    const face = screen.getByTestId('sale-status').textContent ?? '';
    expect(face).not.toContain(SESSION_AGAIN);
    expect(within(details as HTMLElement).getByText(DETAILS)).toBeTruthy();
  });

  it('holds the next sale until "Refund noted": focus on it, New sale disabled, no key clears it', async () => {
    const { user } = await paidThenTwice();
    const noted = screen.getByRole('button', { name: 'Refund noted' });
    await waitFor(() => expect(document.activeElement).toBe(noted));
    expect(screen.getByRole('button', { name: 'New sale' }).hasAttribute('disabled')).toBe(true);
    await user.keyboard('{Escape}');
    await user.keyboard('5');
    expect(screen.getByTestId('paid-twice-notice')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /Amount/ })).toBeNull();
  });

  it('"Refund noted" acknowledges each refund in main, then the next sale may start', async () => {
    const { user, bridge } = await paidThenTwice();
    bridge.acknowledgeAlert.mockImplementation(() => ok({ acknowledged: true }));
    bridge.getSale.mockImplementation(() => ok(paid({ updatedAt: Date.now() + 3 })));
    await user.click(screen.getByRole('button', { name: 'Refund noted' }));
    expect(bridge.acknowledgeAlert).toHaveBeenCalledWith({ alertId: 41 });
    await waitFor(() => expect(screen.queryByTestId('paid-twice-notice')).toBeNull());
    expect(screen.getByTestId('sale-status').className).toContain('status-paid');
    const next = screen.getByRole('button', { name: 'New sale' });
    expect(next.hasAttribute('disabled')).toBe(false);
    await user.click(next);
    expect(screen.getByRole('textbox', { name: /Amount/ })).toBeTruthy();
  });
});
