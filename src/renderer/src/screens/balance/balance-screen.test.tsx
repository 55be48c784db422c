import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { balance, fail, ok, T0 } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

function withBalance() {
  const bridge = createFakeBridge();
  bridge.getBalance.mockImplementation(() => ok(balance()));
  return bridge;
}

describe('Balance screen', () => {
  it('shows the available balance big, the other balances plainly and the account', async () => {
    renderApp(withBalance(), '#/balance');
    expect((await screen.findByTestId('available-balance')).textContent).toBe('₦250,000.50');
    expect(screen.getByText('Settlement position (not available for payout)')).toBeTruthy();
    expect(screen.getByText('₦10,000.00')).toBeTruthy();
    expect(screen.getByText('Mama Put Stores Ltd')).toBeTruthy();
    expect(screen.getByText('Payouts')).toBeTruthy();
    expect(screen.getByText('Provider shows: NGN 250,000.50')).toBeTruthy();
    expect(screen.getByTestId('balance-refreshed').textContent).toContain('10:00:00');
  });

  it('refreshes on request', async () => {
    const user = userEvent.setup();
    const bridge = withBalance();
    renderApp(bridge, '#/balance');
    await screen.findByTestId('available-balance');
    bridge.getBalance.mockImplementation(() =>
      ok(balance({ availableKobo: 100, refreshedAt: T0 + 60_000 })),
    );
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('₦1.00'));
    expect(bridge.getBalance).toHaveBeenCalledTimes(2);
  });

  it('says a payout is covered', async () => {
    const user = userEvent.setup();
    const bridge = withBalance();
    bridge.checkPayout.mockImplementation(() =>
      ok({
        availableKobo: 25_000_050,
        requestedKobo: 10_000_000,
        covered: true,
        shortfallKobo: 0,
        refreshedAt: T0,
      }),
    );
    renderApp(bridge, '#/balance');
    await user.type(await screen.findByRole('textbox', { name: /Payout total/ }), '100000');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(bridge.checkPayout).toHaveBeenCalledWith({ amount: '100000' });
    const result = await screen.findByTestId('payout-result');
    expect(result.textContent).toMatch(/^Covered/);
    expect(result.className).toContain('covered');
  });

  it('says by how much a payout falls short', async () => {
    const user = userEvent.setup();
    const bridge = withBalance();
    bridge.checkPayout.mockImplementation(() =>
      ok({
        availableKobo: 25_000_050,
        requestedKobo: 30_000_000,
        covered: false,
        shortfallKobo: 4_999_950,
        refreshedAt: T0,
      }),
    );
    renderApp(bridge, '#/balance');
    await user.type(await screen.findByRole('textbox', { name: /Payout total/ }), '300000{Enter}');
    const result = await screen.findByTestId('payout-result');
    expect(result.textContent).toMatch(/^Short by ₦49,999\.50/);
  });

  it('asks for a payout total before checking', async () => {
    const user = userEvent.setup();
    const bridge = withBalance();
    renderApp(bridge, '#/balance');
    await screen.findByTestId('available-balance');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter the payout total');
    expect(bridge.checkPayout).not.toHaveBeenCalled();
  });

  it.each([
    ['PROVIDER_AUTH_REFUSED', 'enter a new token in Settings'],
    ['NOT_FOUND', 'check the payout account in Settings'],
    ['NETWORK', 'Check the internet connection, then press "Refresh"'],
  ] as const)('says what to do when the balance fails with %s', async (code, words) => {
    const bridge = createFakeBridge();
    bridge.getBalance.mockImplementation(() => fail(code, 'provider said no'));
    renderApp(bridge, '#/balance');
    expect((await screen.findByRole('alert')).textContent).toContain(words);
    expect(screen.queryByTestId('available-balance')).toBeNull();
  });
});
