import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BridgeProvider } from '../../bridge-context';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import { ok, sale } from '#support/renderer/fixtures';
import { CustomerDisplay } from './customer-display';
import { SEE_CASHIER_MS, THANK_YOU_MS } from './shown-sale';

function renderDisplay(bridge: FakeBridge) {
  return render(
    <BridgeProvider bridge={bridge}>
      <CustomerDisplay shopName="Mama Put Stores" tillId="till-1" />
    </BridgeProvider>,
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Customer display', () => {
  it('welcomes customers with the shop name when no sale runs', async () => {
    renderDisplay(createFakeBridge());
    expect(await screen.findByText('Welcome')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Mama Put Stores' })).toBeTruthy();
    expect(screen.queryByTestId('account-number')).toBeNull();
  });

  it('follows the running sale: amount, account, bank, QR and countdown, then Thank you', async () => {
    const bridge = createFakeBridge();
    renderDisplay(bridge);
    await screen.findByText('Welcome');
    bridge.emit({ type: 'sale-changed', payload: sale() });
    expect(screen.getByTestId('amount-due').textContent).toBe('₦1,500.00');
    expect(screen.getByTestId('account-number').textContent).toBe('012 345 6789');
    expect(screen.getByTestId('bank-name').textContent).toBe('Wema Bank');
    expect(screen.getByText('Mama Put Stores Checkout')).toBeTruthy();
    expect(screen.getByTestId('countdown').textContent).toMatch(/^(29:59|30:00)$/);
    expect((await screen.findByTestId('qr-code')).getAttribute('src')).toMatch(/^data:image\/png/);
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull();

    bridge.emit({ type: 'sale-changed', payload: sale({ state: 'paid' }) });
    expect(screen.getByRole('heading', { name: 'Paid, thank you' })).toBeTruthy();
    expect(screen.getByTestId('paid-amount').textContent).toBe('₦1,500.00');
    expect(screen.queryByTestId('account-number')).toBeNull();
  });

  it('returns to Welcome a few seconds after "Paid, thank you"', async () => {
    const bridge = createFakeBridge();
    renderDisplay(bridge);
    await screen.findByText('Welcome');
    vi.useFakeTimers();
    bridge.emit({ type: 'sale-changed', payload: sale() });
    bridge.emit({ type: 'sale-changed', payload: sale({ state: 'paid' }) });
    expect(screen.getByText('Paid, thank you')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(THANK_YOU_MS - 1000));
    expect(screen.getByText('Paid, thank you')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(1000));
    expect(screen.getByText('Welcome')).toBeTruthy();
  });

  it.each([
    ['expired', 'This account has expired: ask the cashier', true],
    // The till that cancelled may have moved on: the customer keeps no number of it.
    ['cancelled', 'This sale was cancelled: ask the cashier', false],
  ] as const)(
    'says when the shown sale is %s (its number struck: %s), then goes back to Welcome',
    async (state, words, struck) => {
      const bridge = createFakeBridge();
      renderDisplay(bridge);
      await screen.findByText('Welcome');
      vi.useFakeTimers();
      bridge.emit({ type: 'sale-changed', payload: sale() });
      expect(screen.getByTestId('amount-due')).toBeTruthy();
      bridge.emit({ type: 'sale-changed', payload: sale({ state }) });
      expect(screen.getByRole('heading', { name: words })).toBeTruthy();
      if (struck) {
        expect(screen.getByTestId('account-number').tagName).toBe('S');
        expect(screen.getByText('Do not pay into this account')).toBeTruthy();
      } else {
        expect(screen.queryByTestId('account-number')).toBeNull();
      }
      expect(screen.queryByTestId('qr-code')).toBeNull();
      act(() => void vi.advanceTimersByTime(THANK_YOU_MS));
      expect(screen.getByText('Welcome')).toBeTruthy();
    },
  );

  it('shows no number and no QR while the bank processes the transfer: "don\'t pay again"', async () => {
    const bridge = createFakeBridge();
    renderDisplay(bridge);
    await screen.findByText('Welcome');
    bridge.emit({ type: 'sale-changed', payload: sale() });
    await screen.findByTestId('qr-code');
    act(() => bridge.emit({ type: 'sale-changed', payload: sale({ state: 'confirming' }) }));
    expect(screen.getByTestId('display-processing').textContent).toBe(
      "Your bank has received it: please don't pay again",
    );
    expect(screen.getByTestId('amount-due').textContent).toBe('₦1,500.00');
    expect(screen.queryByTestId('account-number')).toBeNull();
    expect(screen.queryByTestId('qr-code')).toBeNull();
    expect(screen.queryByTestId('countdown')).toBeNull();
  });

  it("says the account expired as soon as its time is up, before main's last check", async () => {
    const bridge = createFakeBridge();
    renderDisplay(bridge);
    await screen.findByText('Welcome');
    act(() =>
      bridge.emit({ type: 'sale-changed', payload: sale({ expiresAt: Date.now() - 1_000 }) }),
    );
    expect(screen.getByTestId('display-ended').textContent).toContain(
      'This account has expired: ask the cashier',
    );
    expect(screen.queryByTestId('qr-code')).toBeNull();
  });

  it('never says "Paid, thank you" while a refund is owed, and welcomes once it is noted', async () => {
    const bridge = createFakeBridge();
    renderDisplay(bridge);
    await screen.findByText('Welcome');
    bridge.emit({ type: 'sale-changed', payload: sale() });
    act(() => bridge.emit({ type: 'sale-changed', payload: sale({ state: 'paid' }) }));
    await screen.findByText('Paid, thank you');
    const owed = [{ alertId: 3, amountKobo: 150_000, sessionId: '1', details: 'twice' }];
    act(() =>
      bridge.emit({ type: 'sale-changed', payload: sale({ state: 'paid', refundsOwed: owed }) }),
    );
    expect(
      screen.getByRole('heading', { name: 'Payment received twice: please see the cashier' }),
    ).toBeTruthy();
    expect(screen.queryByText('Paid, thank you')).toBeNull();
    act(() => bridge.emit({ type: 'sale-changed', payload: sale({ state: 'paid' }) }));
    expect(await screen.findByText('Welcome')).toBeTruthy();
  });

  it('sends the customer of an earlier sale paid twice to the cashier after Welcome', async () => {
    const bridge = createFakeBridge();
    renderDisplay(bridge);
    await screen.findByText('Welcome');
    const owed = [{ alertId: 3, amountKobo: 150_000, sessionId: '1', details: 'twice' }];
    act(() =>
      bridge.emit({ type: 'sale-changed', payload: sale({ state: 'paid', refundsOwed: owed }) }),
    );
    expect(
      screen.getByRole('heading', { name: 'Payment received twice: please see the cashier' }),
    ).toBeTruthy();
  });

  it('does not announce the end of a sale it was not showing', async () => {
    const bridge = createFakeBridge();
    renderDisplay(bridge);
    await screen.findByText('Welcome');
    bridge.emit({ type: 'sale-changed', payload: sale({ id: 40, state: 'expired' }) });
    expect(screen.getByText('Welcome')).toBeTruthy();
  });

  it('tells the customer when the amount was wrong', async () => {
    const bridge = createFakeBridge();
    renderDisplay(bridge);
    await screen.findByText('Welcome');
    const reason =
      'Wrong amount ₦900.00: not accepted. The customer must send exactly ₦1,500.00. If money left their account, they should ask their bank with the transfer receipt.';
    bridge.emit({ type: 'sale-changed', payload: sale({ state: 'wrong_amount', reason }) });
    const warning = screen.getByText(/Please transfer exactly ₦1,500.00/);
    // Said to the customer, claiming only what the provider guarantees: it was not accepted.
    expect(warning.textContent).toBe(
      'That transfer was not the amount due, so it was not accepted. Please transfer exactly ₦1,500.00. If money left your account, ask your bank with your transfer receipt.',
    );
    expect(document.body.textContent).not.toContain('The customer must');
  });

  it('picks up the sale already running when it opens, and ignores other tills', async () => {
    const bridge = createFakeBridge();
    bridge.getActivity.mockImplementation(() =>
      ok({
        sales: [
          sale({ id: 1, state: 'paid', createdAt: 1 }),
          sale({ id: 2, state: 'awaiting_payment', amountKobo: 99_900, createdAt: 2 }),
          sale({ id: 3, state: 'awaiting_payment', tillId: 'till-2', createdAt: 3 }),
        ],
        inflows: [],
        alerts: [],
        standingAccounts: [],
      }),
    );
    renderDisplay(bridge);
    expect((await screen.findByTestId('amount-due')).textContent).toBe('₦999.00');
    bridge.emit({
      type: 'sale-changed',
      payload: sale({ id: 4, tillId: 'till-2', createdAt: Date.now() }),
    });
    expect(screen.getByTestId('amount-due').textContent).toBe('₦999.00');
  });

  describe('money after the sale closed', () => {
    const late = (overrides = {}) =>
      sale({ state: 'paid_late', paidAfter: 'cancelled', updatedAt: Date.now() + 1, ...overrides });

    function expectSeeCashier(): void {
      expect(screen.getByRole('heading', { name: 'Payment received: please see the cashier' }));
      expect(screen.queryByText('Paid, thank you')).toBeNull();
      expect(screen.queryByTestId('account-number')).toBeNull();
      expect(screen.queryByTestId('qr-code')).toBeNull();
      expect(screen.queryByTestId('paid-amount')).toBeNull();
    }

    it('sends the customer to the cashier: never "Paid, thank you", never a number', async () => {
      const bridge = createFakeBridge();
      renderDisplay(bridge);
      await screen.findByText('Welcome');
      bridge.emit({ type: 'sale-changed', payload: sale() });
      bridge.emit({ type: 'sale-changed', payload: sale({ state: 'cancelled' }) });
      bridge.emit({ type: 'sale-changed', payload: late() });
      expectSeeCashier();
    });

    it('says so even after the display went back to Welcome, for a minute or until it is dealt with', async () => {
      const bridge = createFakeBridge();
      renderDisplay(bridge);
      await screen.findByText('Welcome');
      vi.useFakeTimers();
      bridge.emit({ type: 'sale-changed', payload: late({ paidAfter: 'expired' }) });
      expectSeeCashier();
      act(() => void vi.advanceTimersByTime(SEE_CASHIER_MS - 1000));
      expectSeeCashier();
      bridge.emit({
        type: 'sale-changed',
        payload: late({
          lateResolution: {
            action: 'goods_given',
            bankReference: null,
            note: null,
            resolvedBy: 'owner',
            resolvedAt: Date.now(),
          },
        }),
      });
      expect(screen.getByText('Welcome')).toBeTruthy();
      bridge.emit({ type: 'sale-changed', payload: late({ id: 9 }) });
      expectSeeCashier();
      act(() => void vi.advanceTimersByTime(SEE_CASHIER_MS));
      expect(screen.getByText('Welcome')).toBeTruthy();
    });

    it('never covers a newer sale the customer is paying', async () => {
      const bridge = createFakeBridge();
      renderDisplay(bridge);
      await screen.findByText('Welcome');
      bridge.emit({ type: 'sale-changed', payload: sale({ id: 9, amountKobo: 99_900 }) });
      bridge.emit({ type: 'sale-changed', payload: late() });
      expect(screen.getByTestId('amount-due').textContent).toBe('₦999.00');
    });
  });
});
