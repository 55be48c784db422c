import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SaleView } from '#shared/sales';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import { alert, earlierSalePaidLate, ok, sale } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { arrivalsIn, paidTwiceWhileOpen, paidWhileOpen } from './use-other-sale-paid';

const OPENED = Date.now();
const WORDS = '₦1,250.00 just arrived for sale #9: same customer? Cancel this one';

/** The sale on screen: #10, opened at OPENED, the customer asked to pay ₦1,250.00 again. */
const current = sale({ id: 10, amountKobo: 125_000, createdAt: OPENED, reference: 'TT-0010' });

/** Sale #9 of the same till, expired, then paid `paidAt`. */
function earlier(overrides: Partial<SaleView> = {}): SaleView {
  return earlierSalePaidLate(OPENED, overrides);
}

async function openSale(bridge: FakeBridge, user: UserEvent): Promise<void> {
  bridge.createSale.mockImplementation(() => ok(current));
  renderApp(bridge);
  await user.type(screen.getByRole('textbox', { name: /Amount/ }), '1250{Enter}');
  await screen.findByRole('button', { name: 'Cancel' });
}

beforeEach(() => {
  window.sessionStorage.clear();
});

describe('Money for another sale: the rule', () => {
  it('counts another sale of the same till paid while this one was open', () => {
    expect(paidWhileOpen(current, earlier())?.amountKobo).toBe(125_000);
    expect(paidWhileOpen(current, earlier({ state: 'paid', paidAfter: null }))?.key).toBe('paid:9');
  });

  it('not money that came before this sale opened, another till, itself, or a case already dealt with', () => {
    expect(paidWhileOpen(current, earlier({ paidAt: OPENED - 1 }))).toBeNull();
    expect(paidWhileOpen(current, earlier({ tillId: 'till-2' }))).toBeNull();
    expect(paidWhileOpen(current, { ...current, state: 'paid', paidAt: OPENED + 1 })).toBeNull();
    expect(paidWhileOpen(current, earlier({ state: 'expired', paidAt: null }))).toBeNull();
    const done = earlier({
      lateResolution: {
        action: 'goods_given',
        bankReference: null,
        note: null,
        resolvedBy: 'owner',
        resolvedAt: OPENED + 40_000,
      },
    });
    expect(paidWhileOpen(current, done)).toBeNull();
  });

  it('a paid-twice alert counts from when it was raised, for the same till only', () => {
    const paid = earlier({ state: 'paid', paidAfter: null, paidAt: OPENED - 60_000 });
    const twice = alert({ id: 4, kind: 'paid_twice', saleId: 9, createdAt: OPENED + 5_000 });
    expect(paidTwiceWhileOpen(current, twice, paid)?.key).toBe('twice:4');
    expect(paidTwiceWhileOpen(current, { ...twice, createdAt: OPENED - 1 }, paid)).toBeNull();
    expect(paidTwiceWhileOpen(current, twice, { ...paid, tillId: 'till-2' })).toBeNull();
    expect(paidTwiceWhileOpen(current, { ...twice, kind: 'paid_late' }, paid)).toBeNull();
    // From main's activity: the paid sale is old news, its second payment is not.
    const found = arrivalsIn(current, {
      sales: [current, paid],
      inflows: [],
      alerts: [twice],
      standingAccounts: [],
    });
    expect(found.map((a) => a.key)).toEqual(['twice:4']);
  });
});

describe('Sale screen: money for another sale', () => {
  it('says it on the open sale; "Cancel this sale" cancels it and shows the sale that was paid', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await openSale(bridge, user);
    expect(screen.queryByTestId('other-sale-paid')).toBeNull();

    bridge.emit({ type: 'sale-changed', payload: earlier() });
    const banner = await screen.findByTestId('other-sale-paid');
    expect(within(banner).getByText(WORDS)).toBeTruthy();

    bridge.cancelSale.mockImplementation(() => ok({ ...current, state: 'cancelled' }));
    await user.click(within(banner).getByRole('button', { name: 'Cancel this sale' }));
    expect(bridge.cancelSale).toHaveBeenCalledWith({ saleId: 10 });
    await waitFor(() => expect(screen.getByTestId('sale-status').textContent).toMatch(/#9/));
    expect(screen.getByTestId('sale-status').textContent).toMatch(/arrived after the sale expired/);
    expect(screen.queryByTestId('other-sale-paid')).toBeNull();
  });

  it('"Different customer" puts the banner away and keeps the sale', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await openSale(bridge, user);
    bridge.emit({ type: 'sale-changed', payload: earlier() });
    const banner = await screen.findByTestId('other-sale-paid');
    await user.click(within(banner).getByRole('button', { name: 'Different customer' }));
    expect(screen.queryByTestId('other-sale-paid')).toBeNull();
    expect(bridge.cancelSale).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    // The same sale changing again is not news again.
    bridge.emit({ type: 'sale-changed', payload: earlier({ updatedAt: OPENED + 60_000 }) });
    expect(screen.queryByTestId('other-sale-paid')).toBeNull();
  });

  it('says nothing for another till, or for money that came before this sale opened', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await openSale(bridge, user);
    bridge.emit({ type: 'sale-changed', payload: earlier({ tillId: 'till-2' }) });
    bridge.emit({ type: 'sale-changed', payload: earlier({ id: 8, paidAt: OPENED - 5_000 }) });
    expect(screen.queryByTestId('other-sale-paid')).toBeNull();
  });

  it('a paid-twice alert on an earlier sale: read that sale from main, then the banner', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await openSale(bridge, user);
    bridge.getSale.mockImplementation(() =>
      ok(earlier({ state: 'paid', paidAfter: null, paidAt: OPENED - 60_000 })),
    );
    bridge.emit({
      type: 'alert',
      payload: alert({ id: 4, kind: 'paid_twice', saleId: 9, createdAt: OPENED + 5_000 }),
    });
    const banner = await screen.findByTestId('other-sale-paid');
    expect(bridge.getSale).toHaveBeenCalledWith({ saleId: 9 });
    expect(within(banner).getByText(WORDS)).toBeTruthy();
  });

  it('back on the sale from another screen, main’s record brings the banner back', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.getActivity.mockImplementation(() =>
      ok({ sales: [current, earlier()], inflows: [], alerts: [], standingAccounts: [] }),
    );
    await openSale(bridge, user);
    expect(await screen.findByTestId('other-sale-paid')).toBeTruthy();
  });
});
