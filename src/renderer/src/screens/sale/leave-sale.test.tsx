import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import { alert, earlierSalePaidLate, ok, sale } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

const OPENED = Date.now();
/** The open sale on screen: #10. */
const current = sale({ id: 10, amountKobo: 125_000, createdAt: OPENED, reference: 'TT-0010' });
/** Sale #9 of the same till, paid after it expired while #10 was open. */
const earlier = earlierSalePaidLate(OPENED);

async function openSale(bridge: FakeBridge, user: UserEvent): Promise<void> {
  bridge.createSale.mockImplementation(() => ok(current));
  bridge.cancelSale.mockImplementation(() =>
    ok({ ...current, state: 'cancelled', updatedAt: OPENED + 60_000 }),
  );
  bridge.getSale.mockImplementation(() => ok(earlier));
  renderApp(bridge);
  await user.type(screen.getByRole('textbox', { name: /Amount/ }), '1250{Enter}');
  await screen.findByRole('button', { name: 'Cancel' });
}

const shownSale = (): string => screen.getByTestId('sale-status').textContent ?? '';

/** The question leaving the open sale for sale #9 asks; its Keep waiting has the focus. */
async function askedToOpen9(): Promise<HTMLElement> {
  const question = await screen.findByRole('group', { name: 'Cancel it and open sale #9?' });
  expect(question.textContent).toContain(
    'This sale is still open: the customer can still pay into it. Cancel it and open sale #9?',
  );
  expect(document.activeElement).toBe(
    within(question).getByRole('button', { name: 'Keep waiting' }),
  );
  return question;
}

beforeEach(() => {
  window.sessionStorage.clear();
});

describe('Leaving an open sale for another asks first, whichever way', () => {
  it('"Open sale #9" on the banner asks; Keep waiting keeps this sale open', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await openSale(bridge, user);
    bridge.emit({ type: 'sale-changed', payload: earlier });
    await user.click(await screen.findByRole('button', { name: 'Open sale #9' }));
    const question = await askedToOpen9();
    await user.click(within(question).getByRole('button', { name: 'Keep waiting' }));
    expect(bridge.cancelSale).not.toHaveBeenCalled();
    expect(shownSale()).toMatch(/#10/);
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('"Cancel it and open sale #9" cancels this sale first, then shows #9', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await openSale(bridge, user);
    bridge.emit({ type: 'sale-changed', payload: earlier });
    await user.click(await screen.findByRole('button', { name: 'Open sale #9' }));
    await askedToOpen9();
    await user.click(screen.getByRole('button', { name: 'Cancel it and open sale #9' }));
    expect(bridge.cancelSale).toHaveBeenCalledWith({ saleId: 10 });
    await waitFor(() => expect(shownSale()).toMatch(/#9/));
  });

  it("an alert's sale link in Activity asks on the sale screen, the same question", async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.getActivity.mockImplementation(() =>
      ok({
        sales: [current],
        inflows: [],
        alerts: [alert({ id: 3, kind: 'paid_late', saleId: 9 })],
        standingAccounts: [],
      }),
    );
    await openSale(bridge, user);
    window.location.hash = '#/activity';
    await user.click(await screen.findByRole('button', { name: 'Open sale #9' }));
    await waitFor(() => expect(window.location.hash).toBe('#/sale'));
    const question = await askedToOpen9();
    expect(shownSale()).toMatch(/#10/);
    expect(bridge.cancelSale).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Cancel it and open sale #9?' })).toBeNull();
    expect(question.isConnected).toBe(false);
    expect(shownSale()).toMatch(/#10/);
  });

  it('from a closed sale, another sale opens at once', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.getActivity.mockImplementation(() =>
      ok({
        sales: [],
        inflows: [],
        alerts: [alert({ id: 3, kind: 'paid_late', saleId: 9 })],
        standingAccounts: [],
      }),
    );
    await openSale(bridge, user);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Yes, cancel the sale' }));
    await screen.findByRole('button', { name: 'New sale' });
    window.location.hash = '#/activity';
    await user.click(await screen.findByRole('button', { name: 'Open sale #9' }));
    await waitFor(() => expect(shownSale()).toMatch(/#9/));
    expect(screen.queryByRole('group', { name: /Cancel it and open/ })).toBeNull();
  });
});
