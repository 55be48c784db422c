import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SaleState, SaleView } from '#shared/sales';
import type { BridgeResult } from '#shared/bridge/contract';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import { fail, ok, sale } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function amountField(): HTMLInputElement {
  return screen.getByRole('textbox', { name: /Amount/ });
}

function digitsOf(element: HTMLElement): string {
  return (element.textContent ?? '').replace(/\s+/g, '');
}

/** Creates a sale through the keyboard and waits for its account to show. */
async function startSale(
  bridge: FakeBridge,
  user: UserEvent,
  created: SaleView = sale(),
): Promise<void> {
  bridge.createSale.mockImplementation(() => ok(created));
  renderApp(bridge);
  await user.type(amountField(), '1500{Enter}');
  await screen.findByTestId('sale-status');
}

describe('Sale screen: entering the amount', () => {
  it('creates a sale from the keyboard and shows the account to pay into', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() => ok(sale()));
    renderApp(bridge);

    expect(document.activeElement).toBe(amountField());
    await user.keyboard('1500');
    expect(amountField().value).toBe('₦1,500'); // grouped in the field itself
    await user.keyboard('{Enter}');

    expect(bridge.createSale).toHaveBeenCalledWith({ amount: '1500' });
    const account = await screen.findByTestId('account-number');
    expect(digitsOf(account)).toBe('0123456789');
    expect(account.textContent).toBe('012 345 6789');
    expect(screen.getByTestId('bank-name').textContent).toBe('Wema Bank');
    expect(screen.getByText('Mama Put Stores Checkout')).toBeTruthy();
    expect(screen.getByTestId('amount-due').textContent).toBe('₦1,500.00');
    expect(screen.getByTestId('sale-status').textContent).toContain('Waiting for transfer');
    expect(screen.getByTestId('countdown').textContent).toMatch(/^(29:59|30:00)$/);
    // The header is the one place for callback health: no banner of the sale's own.
    expect(screen.queryByText('Payment alerts are live')).toBeNull();
  });

  it('shows a QR image of the account details as a data: URL, without claiming scan to pay', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    const qr = await screen.findByTestId('qr-code');
    expect(qr.tagName).toBe('IMG');
    expect(qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(qr.getAttribute('alt')).toBe('Account details (QR)');
    expect(document.body.textContent).not.toMatch(/scan to pay/i);
  });

  it('sends the optional note with the amount', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() => ok(sale({ note: 'Two bags of rice' })));
    renderApp(bridge);
    await user.type(amountField(), '2000');
    await user.type(screen.getByRole('textbox', { name: /Note/ }), 'Two bags of rice');
    await user.click(screen.getByRole('button', { name: 'New sale' }));
    expect(bridge.createSale).toHaveBeenCalledWith({ amount: '2000', note: 'Two bags of rice' });
    expect(await screen.findByText('Two bags of rice')).toBeTruthy();
  });

  it('works with the on-screen keypad, including 00, the point, delete and clear', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() => ok(sale({ amountKobo: 250_050 })));
    renderApp(bridge);
    const keypad = screen.getByRole('group', { name: 'Keypad' });
    const press = (name: string) => user.click(within(keypad).getByRole('button', { name }));

    await press('9');
    await press('Clear amount');
    expect(amountField().value).toBe('');
    for (const key of ['2', '5', '00', '.', '5', '0', '7']) await press(key);
    expect(amountField().value).toBe('₦2,500.50'); // a third decimal is refused
    await press('Delete last digit');
    expect(amountField().value).toBe('₦2,500.5');
    await user.click(screen.getByRole('button', { name: 'New sale' }));
    expect(bridge.createSale).toHaveBeenCalledWith({ amount: '2500.5' });
    expect((await screen.findByTestId('amount-due')).textContent).toBe('₦2,500.50');
  });

  it('takes digits, Enter and Esc while the focus is on the keypad', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() => ok(sale({ amountKobo: 30_000 })));
    renderApp(bridge);
    within(screen.getByRole('group', { name: 'Keypad' }))
      .getByRole('button', { name: '7' })
      .focus();
    await user.keyboard('12');
    expect(amountField().value).toBe('₦12');
    await user.keyboard('{Escape}');
    expect(amountField().value).toBe('');
    await user.keyboard('300{Enter}');
    expect(bridge.createSale).toHaveBeenCalledWith({ amount: '300' });
  });

  it('clears the amount with Esc in the field', async () => {
    const user = userEvent.setup();
    renderApp(createFakeBridge());
    await user.type(amountField(), '45{Escape}');
    expect(amountField().value).toBe('');
  });

  it('asks for an amount before calling the bridge', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    renderApp(bridge);
    await user.type(amountField(), '{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Enter an amount');
    expect(amountField().getAttribute('aria-invalid')).toBe('true');
    expect(bridge.createSale).not.toHaveBeenCalled();
  });

  it('shows an amount error from the bridge next to the field', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() =>
      fail('INVALID_AMOUNT', 'Enter an amount greater than ₦0.00.', 'amount'),
    );
    renderApp(bridge);
    await user.type(amountField(), '0{Enter}');
    const error = await screen.findByRole('alert');
    expect(error.textContent).toBe('Enter an amount greater than ₦0.00.');
    expect(amountField().getAttribute('aria-describedby')).toContain(error.id);
    expect(screen.queryByTestId('sale-status')).toBeNull();
  });

  it('puts provider failures into cashier words', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() => fail('NETWORK', 'connect ECONNREFUSED 10.0.0.1'));
    renderApp(bridge);
    await user.type(amountField(), '100{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe(
      "The bank's service is not answering. Check the internet and try again.",
    );
  });

  it('shows progress while the account is being created', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    let finish: (result: BridgeResult<SaleView>) => void = () => undefined;
    bridge.createSale.mockImplementation(
      () => new Promise<BridgeResult<SaleView>>((resolve) => (finish = resolve)),
    );
    renderApp(bridge);
    await user.type(amountField(), '1500{Enter}');
    expect(screen.getByText('Creating the account…')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New sale' })).toHaveProperty('disabled', true);
    await user.keyboard('{Enter}');
    expect(bridge.createSale).toHaveBeenCalledTimes(1);
    finish({ ok: true, value: sale() });
    expect(await screen.findByTestId('account-number')).toBeTruthy();
  });
});

describe('Sale screen: the running sale', () => {
  const words: readonly [SaleState, string][] = [
    ['awaiting_payment', 'Waiting for transfer'],
    ['confirming', "Received by the customer's bank: don't pay again"],
    ['paid', 'Paid'],
    ['wrong_amount', 'Wrong amount'],
    ['expired', 'Expired'],
    ['cancelled', 'Cancelled'],
    // paid_late has words of its own (paid-late.test.tsx).
    ['failed_to_create', 'Could not create account'],
  ];

  it.each(words)('shows %s as "%s" from a sale-changed event', async (state, text) => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    bridge.emit({ type: 'sale-changed', payload: sale({ state, updatedAt: Date.now() + 1 }) });
    expect(screen.getByTestId('sale-status').textContent).toContain(text);
  });

  it('shows the reason of a wrong amount and keeps waiting for the right one', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    bridge.emit({
      type: 'sale-changed',
      payload: sale({
        state: 'wrong_amount',
        reason:
          'Wrong amount ₦1,000.00: not accepted. The customer must send exactly ₦1,500.00. If money left their account, they should ask their bank with the transfer receipt.',
        updatedAt: Date.now() + 1,
      }),
    });
    const status = screen.getByTestId('sale-status');
    expect(status.textContent).toContain('Wrong amount');
    expect(status.textContent).toContain('Wrong amount ₦1,000.00: not accepted.');
    expect(status.textContent).toContain('If money left their account');
    expect(screen.getByRole('button', { name: 'Customer says they paid' })).toBeTruthy();
  });

  it('shows a big tick and plays a chime when the sale is paid', async () => {
    const created: string[] = [];
    class FakeAudioContext {
      readonly currentTime = 0;
      readonly destination = {};
      createOscillator() {
        created.push('oscillator');
        return {
          type: 'sine',
          frequency: { setValueAtTime: vi.fn() },
          connect: vi.fn(),
          start: vi.fn(),
          stop: vi.fn(),
        };
      }
      createGain() {
        return {
          gain: { setValueAtTime: vi.fn(), exponentialRampToValueAtTime: vi.fn() },
          connect: vi.fn(),
        };
      }
      close() {
        return Promise.resolve();
      }
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    expect(created).toEqual([]);
    bridge.emit({
      type: 'sale-changed',
      payload: sale({ state: 'paid', paidAt: Date.now(), updatedAt: Date.now() + 1 }),
    });
    // The banner repeats the amount received, with the short sale number.
    expect(screen.getByTestId('sale-status').textContent).toMatch(/^✓Paid₦1,500\.00Sale #7/);
    expect(screen.getByTestId('paid-amount').textContent).toBe('₦1,500.00');
    expect(created.length).toBeGreaterThan(0);
    expect(screen.queryByTestId('countdown')).toBeNull();
    // The same paid state again does not chime twice.
    const count = created.length;
    bridge.emit({
      type: 'sale-changed',
      payload: sale({ state: 'paid', paidAt: Date.now(), updatedAt: Date.now() + 2 }),
    });
    expect(created.length).toBe(count);
  });

  it('survives a paid sale without Web Audio', async () => {
    vi.stubGlobal('AudioContext', undefined);
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    bridge.emit({
      type: 'sale-changed',
      payload: sale({ state: 'paid', updatedAt: Date.now() + 1 }),
    });
    expect(screen.getByTestId('sale-status').textContent).toContain('Paid');
  });

  it('ignores events about other sales and stale versions of this one', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    bridge.emit({ type: 'sale-changed', payload: sale({ id: 99, state: 'paid' }) });
    expect(screen.getByTestId('sale-status').textContent).toContain('Waiting for transfer');
    bridge.emit({ type: 'sale-changed', payload: sale({ state: 'expired', updatedAt: 1 }) });
    expect(screen.getByTestId('sale-status').textContent).toContain('Waiting for transfer');
  });

  it.each(['paid', 'expired', 'cancelled'] as const)(
    'leaves no payable number once %s: struck, "do not pay", no Copy, no QR',
    async (state) => {
      const user = userEvent.setup();
      const bridge = createFakeBridge();
      await startSale(bridge, user);
      expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
      bridge.emit({ type: 'sale-changed', payload: sale({ state, updatedAt: Date.now() + 1 }) });
      const number = screen.getByTestId('account-number');
      expect(number.tagName).toBe('S');
      expect(digitsOf(number)).toBe('0123456789');
      expect(screen.getByText('Do not pay into this account')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull();
      expect(screen.queryByTestId('qr-code')).toBeNull();
      expect(screen.queryByText('Amount due')).toBeNull();
    },
  );

  it.each(['expired', 'cancelled'] as const)(
    'starts a %s sale again for the same amount in one press, the focus on it',
    async (state) => {
      const user = userEvent.setup();
      const bridge = createFakeBridge();
      await startSale(bridge, user, sale({ amountKobo: 70_000, note: 'Rice' }));
      bridge.emit({
        type: 'sale-changed',
        payload: sale({ state, amountKobo: 70_000, note: 'Rice', updatedAt: Date.now() + 1 }),
      });
      const again = screen.getByRole('button', { name: 'New sale for ₦700.00' });
      expect(document.activeElement).toBe(again);
      bridge.createSale.mockImplementation(() => ok(sale({ id: 8, amountKobo: 70_000 })));
      await user.keyboard('{Enter}');
      expect(bridge.createSale).toHaveBeenLastCalledWith({ amount: '700.00', note: 'Rice' });
      await waitFor(() =>
        expect(screen.getByTestId('sale-status').textContent).toContain('Sale #8'),
      );
    },
  );

  it('starts the next amount when digits are typed on a paid sale, and Enter creates it', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    bridge.emit({
      type: 'sale-changed',
      payload: sale({ state: 'paid', paidAt: Date.now(), updatedAt: Date.now() + 1 }),
    });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New sale' }));
    await user.keyboard('25');
    expect(amountField().value).toBe('₦25');
    bridge.createSale.mockImplementation(() => ok(sale({ id: 9, amountKobo: 2_500 })));
    await user.keyboard('0{Enter}');
    expect(bridge.createSale).toHaveBeenLastCalledWith({ amount: '250' });
  });

  it('copies the account number to the clipboard', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn<(text: string) => Promise<void>>(() => Promise.resolve());
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    vi.spyOn(navigator, 'clipboard', 'get').mockReturnValue({ writeText } as unknown as Clipboard);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('0123456789');
    expect(screen.getByText('Copied')).toBeTruthy();
  });

  it('falls back to a message when the clipboard refuses', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    vi.spyOn(navigator, 'clipboard', 'get').mockReturnValue({
      writeText: () => Promise.reject(new Error('denied')),
    } as unknown as Clipboard);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText(/Copy is not available here/)).toBeTruthy();
    expect(screen.getByText(/read it out: 012 345 6789/)).toBeTruthy();
  });

  it('cancels after a confirmation', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.cancelSale.mockImplementation(() =>
      ok(sale({ state: 'cancelled', updatedAt: Date.now() + 1 })),
    );
    await startSale(bridge, user);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(bridge.cancelSale).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'No, keep waiting' }));
    expect(bridge.cancelSale).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Yes, cancel the sale' }));
    expect(bridge.cancelSale).toHaveBeenCalledWith({ saleId: 7 });
    await waitFor(() =>
      expect(screen.getByTestId('sale-status').textContent).toContain('Cancelled'),
    );
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('asks to cancel the running sale on Esc with the safe choice focused: Enter keeps the sale', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.cancelSale.mockImplementation(() =>
      ok(sale({ state: 'cancelled', updatedAt: Date.now() + 1 })),
    );
    await startSale(bridge, user);
    await user.keyboard('{Escape}');
    const keep = screen.getByRole('button', { name: 'No, keep waiting' });
    expect(document.activeElement).toBe(keep);
    await user.keyboard('{Enter}');
    expect(bridge.cancelSale).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    // Cancelling takes a deliberate step: Esc, then Tab to "Yes", then Enter.
    await user.keyboard('{Escape}');
    await user.tab();
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Yes, cancel the sale' }),
    );
    await user.keyboard('{Enter}');
    expect(bridge.cancelSale).toHaveBeenCalledWith({ saleId: 7 });
  });

  it('closes the cancel question with a second Esc, and Esc on a finished sale starts afresh', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Yes, cancel the sale' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('button', { name: 'Yes, cancel the sale' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(bridge.cancelSale).not.toHaveBeenCalled();

    bridge.emit({
      type: 'sale-changed',
      payload: sale({ state: 'expired', updatedAt: Date.now() + 1 }),
    });
    await user.keyboard('{Escape}');
    expect(amountField().value).toBe('');
  });

  it('shows a refusal to cancel in words', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.cancelSale.mockImplementation(() => fail('SALE_NOT_OPEN', 'Sale 7 is paid.'));
    await startSale(bridge, user);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Yes, cancel the sale' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This sale is already finished. Start a new sale.',
    );
  });

  it('checks with the bank when the customer says they paid', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.customerSaysPaid.mockImplementation(() =>
      ok(sale({ state: 'confirming', updatedAt: Date.now() + 1 })),
    );
    await startSale(bridge, user);
    await user.click(screen.getByRole('button', { name: 'Customer says they paid' }));
    expect(bridge.customerSaysPaid).toHaveBeenCalledWith({ saleId: 7 });
    expect(screen.getByTestId('sale-status').textContent).toContain(
      "Received by the customer's bank: don't pay again",
    );
  });

  it('hides the number, QR, Copy and time left while the bank processes a transfer', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    expect(await screen.findByTestId('qr-code')).toBeTruthy();
    bridge.emit({
      type: 'sale-changed',
      payload: sale({ state: 'confirming', updatedAt: Date.now() + 1 }),
    });
    await waitFor(() => expect(screen.queryByTestId('account-number')).toBeNull());
    expect(screen.queryByTestId('qr-code')).toBeNull();
    expect(screen.queryByRole('button', { name: /Copy/ })).toBeNull();
    expect(screen.queryByTestId('countdown')).toBeNull();
    expect(screen.getByTestId('amount-due').textContent).toBe('₦1,500.00');
  });

  it('shows a sale whose time ran out as expired at once, not "waiting" beside "Expired"', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    // Main's deadline check comes a few seconds after the time given ends.
    await startSale(bridge, user, sale({ expiresAt: Date.now() - 1_000 }));
    const status = screen.getByTestId('sale-status');
    expect(status.textContent).toMatch(/^Expired/);
    expect(status.textContent).not.toContain('Waiting for transfer');
    expect(screen.queryByTestId('qr-code')).toBeNull();
    expect(screen.queryByTestId('countdown')).toBeNull();
    expect(screen.getByTestId('account-number').tagName).toBe('S');
  });

  it('says so when the bank has not reported the transfer yet', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.customerSaysPaid.mockImplementation(() => ok(sale({ updatedAt: Date.now() + 1 })));
    await startSale(bridge, user);
    await user.click(screen.getByRole('button', { name: 'Customer says they paid' }));
    expect(await screen.findByText(/has not reported this transfer yet/)).toBeTruthy();
  });

  it('retries a sale whose account could not be created', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.retrySale.mockImplementation(() => ok(sale({ updatedAt: Date.now() + 1 })));
    await startSale(
      bridge,
      user,
      sale({
        state: 'failed_to_create',
        reason: "The bank's service is not answering.",
        accountNumber: null,
        bank: null,
        accountName: null,
        expiresAt: null,
        canRetry: true,
      }),
    );
    const status = screen.getByTestId('sale-status');
    expect(status.textContent).toContain('Could not create account');
    expect(status.textContent).toContain("The bank's service is not answering.");
    expect(screen.queryByTestId('account-number')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(bridge.retrySale).toHaveBeenCalledWith({ saleId: 7 });
    expect(digitsOf(await screen.findByTestId('account-number'))).toBe('0123456789');
    expect(screen.getByTestId('sale-status').textContent).toContain('Waiting for transfer');
  });

  it('offers no "Try again" for a refusal only a setting can change, and says what to fix', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    const reason =
      "The provider refused the shop's details: the Merchant ID is missing or wrong. An owner can fix it in Settings → Connect provider.";
    await startSale(
      bridge,
      user,
      sale({
        state: 'failed_to_create',
        reason,
        accountNumber: null,
        bank: null,
        accountName: null,
        expiresAt: null,
        canRetry: false,
      }),
    );
    expect(screen.getByTestId('sale-status').textContent).toContain(reason);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    // The way on is a new sale, once the owner has fixed the setting.
    expect(screen.getByRole('button', { name: 'New sale' })).toBeTruthy();
  });

  it('asks before New sale leaves an open sale; Keep waiting (focused) keeps it', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    await user.click(screen.getByRole('button', { name: 'New sale' }));
    const question = screen.getByRole('group', { name: 'Cancel it and start a new sale?' });
    expect(question.textContent).toContain(
      'This sale is still open: the customer can still pay into it. Cancel it and start a new sale?',
    );
    const keep = within(question).getByRole('button', { name: 'Keep waiting' });
    expect(document.activeElement).toBe(keep);
    await user.keyboard('{Enter}');
    expect(bridge.cancelSale).not.toHaveBeenCalled();
    expect(screen.getByTestId('sale-status').textContent).toContain('Waiting for transfer');
  });

  it('cancels the open sale through the usual cancel before going back to an empty amount field', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.cancelSale.mockImplementation(() =>
      ok(sale({ state: 'cancelled', updatedAt: Date.now() + 1 })),
    );
    await startSale(bridge, user);
    await user.click(screen.getByRole('button', { name: 'New sale' }));
    await user.click(screen.getByRole('button', { name: 'Cancel it and start a new sale' }));
    expect(bridge.cancelSale).toHaveBeenCalledWith({ saleId: 7 });
    await waitFor(() => expect(amountField().value).toBe(''));
    expect(document.activeElement).toBe(amountField());
    expect(screen.queryByTestId('sale-status')).toBeNull();
  });

  it('stays on the open sale when its cancel is refused', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.cancelSale.mockImplementation(() => fail('NETWORK', 'no'));
    await startSale(bridge, user);
    await user.click(screen.getByRole('button', { name: 'New sale' }));
    await user.click(screen.getByRole('button', { name: 'Cancel it and start a new sale' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByTestId('sale-status')).toBeTruthy();
  });

  it('brings back a sale it left when it is paid after all, instead of an empty keypad', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.cancelSale.mockImplementation(() =>
      ok(sale({ state: 'cancelled', updatedAt: Date.now() + 1 })),
    );
    await startSale(bridge, user);
    await user.click(screen.getByRole('button', { name: 'New sale' }));
    await user.click(screen.getByRole('button', { name: 'Cancel it and start a new sale' }));
    await waitFor(() => expect(amountField()).toBeTruthy());
    bridge.emit({
      type: 'sale-changed',
      payload: sale({ state: 'paid_late', paidAfter: 'cancelled', updatedAt: Date.now() + 2 }),
    });
    expect((await screen.findByTestId('sale-status')).textContent).toMatch(
      /^₦1,500\.00 arrived after you cancelled/,
    );
    // Another till's or an unseen sale is not brought in.
    bridge.emit({
      type: 'sale-changed',
      payload: sale({ id: 99, state: 'paid_late', paidAfter: 'cancelled' }),
    });
    expect(screen.getByTestId('sale-status').textContent).toContain('Sale #7');
  });

  it('keeps the running sale while the cashier visits another screen', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await startSale(bridge, user);
    await user.click(screen.getByRole('link', { name: 'Activity' }));
    await screen.findByRole('heading', { name: 'Activity' });
    bridge.emit({
      type: 'sale-changed',
      payload: sale({ state: 'paid', updatedAt: Date.now() + 1 }),
    });
    await user.click(screen.getByRole('link', { name: 'Sale' }));
    expect((await screen.findByTestId('sale-status')).textContent).toContain('Paid');
  });

  it('prints a receipt in the paper width saved in Settings, with the dialog in the browser', async () => {
    const user = userEvent.setup();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const bridge = createFakeBridge();
    bridge.getReceipt.mockImplementation(() =>
      ok({
        shopName: 'Mama Put Stores',
        saleId: 7,
        state: 'paid',
        amountKobo: 150_000,
        accountNumber: '0123456789',
        accountName: 'Mama Put Stores Checkout',
        bank: 'Wema Bank',
        reference: 'TT-0007',
        sessionId: '100004261122090000123456789012',
        createdAt: Date.UTC(2026, 10, 22, 9, 0, 0),
        paidAt: Date.UTC(2026, 10, 22, 9, 3, 0),
        cashier: 'Ada',
        tillId: 'till-1',
        timeZone: 'Africa/Lagos',
      }),
    );
    bridge.getPrintSetup.mockImplementation(() =>
      ok({ paperWidthMm: 58, printerName: null, silent: false }),
    );
    await startSale(bridge, user, sale({ state: 'paid' }));
    await user.click(screen.getByRole('button', { name: 'Print receipt' }));
    expect(bridge.getReceipt).toHaveBeenCalledWith({ saleId: 7 });
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    // Main was asked first, with the receipt on the page; it answered "use the dialog".
    expect(bridge.printReceipt).toHaveBeenCalledTimes(1);
    expect(bridge.printReceipt.mock.calls[0]?.[0]).toMatchObject({ saleId: 7 });
    expect(screen.queryByRole('combobox', { name: 'Receipt paper' })).toBeNull();
    const receipt = screen.getByRole('article', { name: 'Receipt' });
    expect(receipt.className).toContain('receipt-58');
    const text = receipt.textContent ?? '';
    for (const part of [
      'Mama Put Stores',
      '₦1,500.00',
      '012 345 6789',
      'Wema Bank',
      'TT-0007',
      '100004261122090000123456789012',
      'Ada',
      'till-1',
    ]) {
      expect(text).toContain(part);
    }
    // Paid at 09:03 UTC is 10:03 in Lagos.
    expect(text).toMatch(/10:03/);
    expect(document.body.classList.contains('printing-receipt')).toBe(true);
    window.dispatchEvent(new Event('afterprint'));
    expect(document.body.classList.contains('printing-receipt')).toBe(false);
  });
  it('prints straight to the saved printer in the desktop app, and falls back to the dialog', async () => {
    const user = userEvent.setup();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const bridge = createFakeBridge();
    bridge.getReceipt.mockImplementation(() =>
      ok({
        shopName: 'Mama Put Stores',
        saleId: 7,
        state: 'paid',
        amountKobo: 150_000,
        accountNumber: '0123456789',
        accountName: null,
        bank: 'Wema Bank',
        reference: 'TT-0007',
        sessionId: '100004261122090000123456789012',
        createdAt: Date.UTC(2026, 10, 22, 9, 0, 0),
        paidAt: Date.UTC(2026, 10, 22, 9, 3, 0),
        cashier: 'Ada',
        tillId: 'till-1',
        timeZone: 'Africa/Lagos',
      }),
    );
    bridge.getPrintSetup.mockImplementation(() =>
      ok({ paperWidthMm: 80, printerName: 'XP-80C', silent: true }),
    );
    bridge.printReceipt.mockImplementation(() => {
      // Main prints the page as it is: the receipt is on it and marked for printing.
      expect(document.body.classList.contains('printing-receipt')).toBe(true);
      expect(document.querySelector('.receipt-sheet .receipt-80')?.textContent).toContain(
        'TT-0007',
      );
      return ok({ mode: 'silent', printerName: 'XP-80C' });
    });
    await startSale(bridge, user, sale({ state: 'paid' }));
    await user.click(screen.getByRole('button', { name: 'Print receipt' }));
    expect(await screen.findByText('Receipt printed on XP-80C.')).toBeTruthy();
    expect(print).not.toHaveBeenCalled();
    expect(document.body.classList.contains('printing-receipt')).toBe(false);

    // The printer fails (out of paper): the cashier is told, and the dialog opens instead.
    bridge.printReceipt.mockImplementation(() =>
      fail('PRINT_FAILED', 'The receipt printer XP-80C did not print (out of paper).'),
    );
    await user.click(screen.getByRole('button', { name: 'Print receipt' }));
    expect(
      await screen.findByText(
        'The receipt printer XP-80C did not print (out of paper). The print dialog opened instead.',
      ),
    ).toBeTruthy();
    expect(print).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('afterprint'));
    expect(document.body.classList.contains('printing-receipt')).toBe(false);
  });
});
