import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { ok, sale } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

/** After each change of a sale's state the focus is on the next action, never the page body. */
describe('the focus after each moment of a sale', () => {
  it("is on the sale's Cancel once Enter has created the sale", async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() => ok(sale()));
    renderApp(bridge);
    await user.keyboard('1500{Enter}');
    await screen.findByTestId('account-number');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })),
    );
  });

  it('goes back to Cancel when the cancel question is answered "No, keep waiting"', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() => ok(sale()));
    renderApp(bridge);
    await user.keyboard('1500{Enter}');
    await screen.findByTestId('account-number');
    await user.keyboard('{Escape}');
    expect(document.activeElement?.textContent).toBe('No, keep waiting');
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('is on "New sale for ₦2,500.00" after a keyboard cancel, and Enter starts it', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() => ok(sale({ amountKobo: 250_000 })));
    let answer: () => void = () => undefined;
    // Main answers the cancel a moment later, as over the network.
    bridge.cancelSale.mockImplementation(
      () =>
        new Promise((resolve) => {
          answer = () =>
            resolve(
              ok(sale({ amountKobo: 250_000, state: 'cancelled', updatedAt: Date.now() + 1 })),
            );
        }),
    );
    renderApp(bridge);
    await user.keyboard('2500{Enter}');
    await screen.findByTestId('account-number');
    await user.keyboard('{Escape}{Tab}{Enter}');
    expect(bridge.cancelSale).toHaveBeenCalledWith({ saleId: 7 });
    // The sale's own event comes first; the call's answer (which frees the buttons) after it.
    bridge.emit({
      type: 'sale-changed',
      payload: sale({ amountKobo: 250_000, state: 'cancelled', updatedAt: Date.now() + 1 }),
    });
    answer();
    const again = await screen.findByRole('button', { name: 'New sale for ₦2,500.00' });
    await waitFor(() => expect(document.activeElement).toBe(again));
    bridge.createSale.mockImplementation(() => ok(sale({ id: 8, amountKobo: 250_000 })));
    await user.keyboard('{Enter}');
    expect(bridge.createSale).toHaveBeenLastCalledWith({ amount: '2500.00' });
  });
});
