import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SaleView } from '#shared/sales';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import { fail, ok, sale } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { CustomerDisplayView } from '../display/customer-display';
import { render } from '@testing-library/react';

afterEach(() => {
  vi.restoreAllMocks();
});

const OFFLINE_WORDS =
  'The provider did not answer. Check the internet connection and try again (no money can reach an account the customer never saw).';

const failedOffline = (overrides: Partial<SaleView> = {}) =>
  sale({
    state: 'failed_to_create',
    reason: OFFLINE_WORDS,
    accountNumber: null,
    bank: null,
    accountName: null,
    expiresAt: null,
    canRetry: true,
    offlineCause: true,
    ...overrides,
  });

const outage = (overrides: Partial<SaleView> = {}) =>
  sale({
    id: 8,
    state: 'unconfirmed',
    amountKobo: 150_000,
    amountDueKobo: 150_037,
    accountNumber: '9876543210',
    bank: 'Wema Bank',
    accountName: 'Mama Put Stores',
    expiresAt: null,
    outagePolicy: 'wait',
    outageAction: null,
    ...overrides,
  });

async function startWith(bridge: FakeBridge, created: SaleView) {
  const user = userEvent.setup();
  bridge.createSale.mockImplementation(() => ok(created));
  renderApp(bridge);
  await user.type(screen.getByRole('textbox', { name: /Amount/ }), '1500{Enter}');
  await screen.findByTestId('sale-status');
  return user;
}

describe('a sale that could not start for lack of connection', () => {
  it("offers the shop's standing account in one press, for the same amount", async () => {
    const bridge = createFakeBridge();
    bridge.createOutageSale.mockImplementation(() => ok(outage()));
    const user = await startWith(bridge, failedOffline());
    const take = screen.getByRole('button', { name: "Take it on the shop's standing account" });
    // The one next action: Try again steps back.
    expect(take.className).toContain('primary');
    expect(screen.getByRole('button', { name: 'Try again' }).className).toContain('secondary');
    await user.click(take);
    expect(bridge.createOutageSale).toHaveBeenCalledWith({ amount: '1500.00' });
    expect(await screen.findByText('Send exactly')).toBeTruthy();
  });

  it('is not offered when the provider answered with a refusal, or for a sale that cannot retry', async () => {
    const bridge = createFakeBridge();
    await startWith(bridge, failedOffline({ offlineCause: false }));
    expect(
      screen.queryByRole('button', { name: "Take it on the shop's standing account" }),
    ).toBeNull();
    expect(screen.getByRole('button', { name: 'Try again' }).className).toContain('primary');
  });

  it("shows main's refusal in shop words when the till has no standing account yet", async () => {
    const bridge = createFakeBridge();
    bridge.createOutageSale.mockImplementation(() => fail('OUTAGE_ACCOUNT_MISSING', 'no account'));
    const user = await startWith(bridge, failedOffline());
    await user.click(
      screen.getByRole('button', { name: "Take it on the shop's standing account" }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This till has no standing account for outages yet.',
    );
  });
});

describe('an unconfirmed (outage) sale on the till', () => {
  it('says "Send exactly" with the kobo set apart, the account, no countdown, and why', async () => {
    const bridge = createFakeBridge();
    await startWith(bridge, outage());
    const amount = screen.getByTestId('amount-due');
    expect(amount.textContent).toBe('₦1,500.37');
    expect(amount.querySelector('.exact-kobo')?.textContent).toBe('.37');
    expect(screen.getByTestId('bank-name').textContent).toBe('Wema Bank');
    expect(screen.getByTestId('account-name').textContent).toBe('Mama Put Stores');
    expect(screen.queryByTestId('countdown')).toBeNull();
    const status = screen.getByTestId('sale-status');
    expect(status.textContent).toContain('Unconfirmed');
    expect(status.textContent).toContain(
      "The provider can't be reached: this payment will be confirmed when it is back",
    );
    expect(status.textContent).toContain(
      'Shop rule: give the goods only once this payment is confirmed.',
    );
  });

  it('wait policy: "Keep waiting" is the one next action and is recorded; New sale does not cancel', async () => {
    const bridge = createFakeBridge();
    bridge.recordOutageAction.mockImplementation(() =>
      ok(outage({ outageAction: 'keep_waiting' })),
    );
    const user = await startWith(bridge, outage());
    const keep = screen.getByRole('button', { name: 'Keep waiting' });
    expect(keep.className).toContain('primary');
    await waitFor(() => expect(document.activeElement).toBe(keep));
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(
      screen.queryByRole('button', { name: "Goods given on the customer's screen" }),
    ).toBeNull();
    await user.click(keep);
    expect(bridge.recordOutageAction).toHaveBeenCalledWith({ saleId: 8, action: 'keep_waiting' });
    expect((await screen.findByTestId('outage-policy')).textContent).toBe(
      'Waiting for confirmation: recorded.',
    );
    const next = screen.getByRole('button', { name: 'New sale' });
    expect(next.className).toContain('primary');
    await user.click(next);
    expect(bridge.cancelSale).not.toHaveBeenCalled();
    expect(screen.getByRole('textbox', { name: /Amount/ })).toBeTruthy();
  });

  it('hand-over policy: "Goods given on the customer\'s screen" is recorded', async () => {
    const bridge = createFakeBridge();
    bridge.recordOutageAction.mockImplementation(() =>
      ok(outage({ outagePolicy: 'hand_over', outageAction: 'goods_given' })),
    );
    const user = await startWith(bridge, outage({ outagePolicy: 'hand_over' }));
    expect(screen.queryByRole('button', { name: 'Keep waiting' })).toBeNull();
    await user.click(screen.getByRole('button', { name: "Goods given on the customer's screen" }));
    expect(bridge.recordOutageAction).toHaveBeenCalledWith({ saleId: 8, action: 'goods_given' });
    expect((await screen.findByTestId('outage-policy')).textContent).toBe(
      "Goods given on the customer's screen: recorded.",
    );
    expect(
      screen.queryByRole('button', { name: "Goods given on the customer's screen" }),
    ).toBeNull();
  });
});

describe('an outage sale once the money is seen', () => {
  it('says it was paid on the standing account, with the amount asked, and neither offers nor strikes that account', async () => {
    const bridge = createFakeBridge();
    await startWith(bridge, outage({ state: 'paid', paidAt: 1_700_000_000_000 }));
    const status = screen.getByTestId('sale-status');
    expect(screen.getByTestId('paid-amount').textContent).toBe('₦1,500.00');
    expect(
      within(status).getByText(/^Outage sale: paid on the shop.s standing account$/),
    ).toBeTruthy();
    expect(screen.getByTestId('asked-to-send').textContent).toBe('₦1,500.37');
    // The standing account takes the next outage sale: not "Do not pay into this account".
    expect(screen.queryByTestId('dead-number-words')).toBeNull();
    expect(screen.queryByTestId('account-number')).toBeNull();
  });
});

describe('an unconfirmed sale on the customer display', () => {
  it('shows the exact amount and the standing account, no countdown', () => {
    render(<CustomerDisplayView shopName="Mama Put" sale={outage()} />);
    const shown = screen.getByTestId('display-outage');
    expect(within(shown).getByTestId('amount-due').textContent).toBe('₦1,500.37');
    expect(shown.textContent).toContain('Send exactly');
    expect(shown.textContent).toContain('kobo included');
    expect(within(shown).getByTestId('bank-name').textContent).toBe('Wema Bank');
    expect(within(shown).queryByTestId('countdown')).toBeNull();
  });
});
