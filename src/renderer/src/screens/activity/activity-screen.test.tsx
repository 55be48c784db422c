import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import {
  alert,
  standingAccount,
  fail,
  inflow,
  ok,
  sale,
  status,
  T0,
} from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

function withActivity() {
  const bridge = createFakeBridge();
  bridge.getStatus.mockImplementation(() => ok(status({ openAlerts: 1 })));
  bridge.getActivity.mockImplementation(() =>
    ok({
      sales: [
        sale({ id: 7, state: 'paid', createdAt: T0 }),
        sale({ id: 8, state: 'expired', amountKobo: 20_000, reference: 'TT-0008', createdAt: T0 }),
      ],
      inflows: [
        inflow(),
        inflow({ sessionId: '100004261122090000000000000002', saleId: null, amountKobo: 70_000 }),
      ],
      alerts: [alert(), alert({ id: 4, message: 'Old one', acknowledgedAt: T0 })],
      standingAccounts: [standingAccount()],
    }),
  );
  return bridge;
}

describe('Activity screen', () => {
  it("lists today's sales, money in and open alerts", async () => {
    renderApp(withActivity(), '#/activity');
    const sales = await screen.findByTestId('activity-sales');
    const rows = within(sales).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]?.textContent).toContain('₦1,500.00');
    expect(rows[1]?.textContent).toContain('Paid');
    expect(rows[1]?.textContent).toContain('10:00'); // 09:00 UTC in Lagos
    expect(rows[2]?.textContent).toContain('Expired');

    const inflows = screen.getByTestId('activity-inflows');
    expect(within(inflows).getAllByRole('row')).toHaveLength(3);
    expect(inflows.textContent).toContain('Sale #7');
    expect(inflows.textContent).toContain('Standing account or other');
    expect(inflows.textContent).toContain('₦700.00');

    expect(screen.getByText(/Sale #5 was paid after it was cancelled/)).toBeTruthy();
    expect(screen.queryByText('Old one')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Needs attention (1)' })).toBeTruthy();
    expect(screen.getByTestId('standing-account').textContent).toContain('987 654 3210');
  });

  it('acknowledges an alert and refreshes the header count', async () => {
    const user = userEvent.setup();
    const bridge = withActivity();
    bridge.acknowledgeAlert.mockImplementation(() => ok({ acknowledged: true }));
    renderApp(bridge, '#/activity');
    expect(await screen.findByRole('link', { name: '1 open alert' })).toBeTruthy();
    bridge.getStatus.mockImplementation(() => ok(status({ openAlerts: 0 })));
    await user.click(await screen.findByRole('button', { name: 'Acknowledge' }));
    expect(bridge.acknowledgeAlert).toHaveBeenCalledWith({ alertId: 3 });
    await waitFor(() => expect(screen.queryByText(/Sale #5 was paid after/)).toBeNull());
    expect(screen.getByText('Nothing needs attention.')).toBeTruthy();
    expect(await screen.findByRole('link', { name: '0 open alerts' })).toBeTruthy();
  });

  it('shows a failed acknowledgement in words and keeps the alert', async () => {
    const user = userEvent.setup();
    const bridge = withActivity();
    bridge.acknowledgeAlert.mockImplementation(() => fail('BRIDGE_OFFLINE', 'down'));
    renderApp(bridge, '#/activity');
    await user.click(await screen.findByRole('button', { name: 'Acknowledge' }));
    expect((await screen.findByRole('alert')).textContent).toContain('till service is not running');
    expect(screen.getByText(/Sale #5 was paid after/)).toBeTruthy();
  });

  it('adds inflows, alerts and sale changes as they happen', async () => {
    const bridge = withActivity();
    renderApp(bridge, '#/activity');
    const inflows = await screen.findByTestId('activity-inflows');
    bridge.emit({
      type: 'inflow',
      payload: inflow({
        sessionId: '100004261122090000000000000003',
        saleId: null,
        amountKobo: 1_234_500,
      }),
    });
    expect(inflows.textContent).toContain('₦12,345.00');
    expect(within(inflows).getAllByRole('row')).toHaveLength(4);
    // The same session again updates its row instead of adding one.
    bridge.emit({
      type: 'inflow',
      payload: inflow({
        sessionId: '100004261122090000000000000003',
        saleId: null,
        amountKobo: 1_234_500,
        status: 'pending',
      }),
    });
    expect(within(inflows).getAllByRole('row')).toHaveLength(4);

    bridge.emit({
      type: 'alert',
      payload: alert({ id: 10, message: 'Transfer to an expired account' }),
    });
    expect(screen.getByText('Transfer to an expired account')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Acknowledge' })).toHaveLength(2);

    bridge.emit({
      type: 'sale-changed',
      payload: sale({ id: 8, state: 'paid_late', amountKobo: 20_000 }),
    });
    expect(screen.getByTestId('activity-sales').textContent).toContain('Paid late');
  });

  it.each([
    ['cancelled', 'Paid after cancel'],
    ['expired', 'Paid after expiry'],
  ] as const)(
    'marks a sale paid after it was %s as "%s", amber, not Paid',
    async (after, words) => {
      const bridge = createFakeBridge();
      bridge.getActivity.mockImplementation(() =>
        ok({
          sales: [
            sale({ id: 8, state: 'paid_late', paidAfter: after }),
            sale({ id: 9, state: 'paid' }),
          ],
          inflows: [],
          alerts: [],
          standingAccounts: [],
        }),
      );
      renderApp(bridge, '#/activity');
      const table = await screen.findByTestId('activity-sales');
      const [late, paid] = within(table).getAllByRole('row').slice(1);
      expect(late?.querySelector('.state')?.textContent).toBe(words);
      expect(late?.querySelector('.state')?.className).toContain('state-paid_late');
      expect(paid?.querySelector('.state')?.textContent).toBe('Paid');
    },
  );

  it('creates a fixed-amount standing account and shows its details', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createStandingAccount.mockImplementation(() =>
      ok(
        standingAccount({
          id: 2,
          type: 'static',
          accountNumber: '5550001111',
          amountKobo: 500_000,
        }),
      ),
    );
    renderApp(bridge, '#/activity');
    await user.click(await screen.findByRole('radio', { name: 'Fixed amount' }));
    await user.click(screen.getByRole('button', { name: 'Create standing account' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter the fixed amount');
    expect(bridge.createStandingAccount).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: 'Fixed amount (₦)' }), '5000');
    await user.click(screen.getByRole('button', { name: 'Create standing account' }));
    expect(bridge.createStandingAccount).toHaveBeenCalledWith({ type: 'static', amount: '5000' });
    const created = await screen.findByTestId('standing-account');
    expect(created.textContent).toContain('555 000 1111');
    expect(created.textContent).toContain('₦5,000.00');
  });

  it('creates an any-amount standing account by default', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createStandingAccount.mockImplementation(() => ok(standingAccount()));
    renderApp(bridge, '#/activity');
    await user.click(await screen.findByRole('button', { name: 'Create standing account' }));
    expect(bridge.createStandingAccount).toHaveBeenCalledWith({ type: 'static-flex' });
    expect((await screen.findByTestId('standing-account')).textContent).toContain('Any amount');
  });
});

describe('Activity alerts a cashier can act on', () => {
  it('names its sale as a button that opens the sale on the sale screen', async () => {
    const user = userEvent.setup();
    const bridge = withActivity();
    bridge.getSale.mockImplementation(() =>
      ok(sale({ id: 5, state: 'paid_late', amountKobo: 200_000 })),
    );
    renderApp(bridge, '#/activity');
    await user.click(await screen.findByRole('button', { name: 'Open sale #5' }));
    expect(bridge.getSale).toHaveBeenCalledWith({ saleId: 5 });
    await waitFor(() => expect(window.location.hash).toBe('#/sale'));
    expect((await screen.findByTestId('amount-due')).textContent).toContain('₦2,000.00');
  });

  it("offers the press that resolves it: a late payment's is on its sale", async () => {
    const user = userEvent.setup();
    const bridge = withActivity();
    bridge.getSale.mockImplementation(() => ok(sale({ id: 5, state: 'paid_late' })));
    renderApp(bridge, '#/activity');
    await user.click(await screen.findByRole('button', { name: 'Give goods or refund' }));
    expect(bridge.getSale).toHaveBeenCalledWith({ saleId: 5 });
    await waitFor(() => expect(window.location.hash).toBe('#/sale'));
  });

  it('"Check payment now" asks main about the open sale; only Acknowledge where nothing resolves it', async () => {
    const user = userEvent.setup();
    const bridge = withActivity();
    bridge.getActivity.mockImplementation(() =>
      ok({
        sales: [],
        inflows: [],
        alerts: [
          alert({ id: 6, kind: 'poll_cap', saleId: 9, action: 'check-payment', message: 'Ask' }),
          alert({ id: 7, kind: 'tunnel_url_changed', saleId: null, action: null, message: 'Shop' }),
        ],
        standingAccounts: [],
      }),
    );
    bridge.customerSaysPaid.mockImplementation(() => ok(sale({ id: 9, state: 'paid' })));
    renderApp(bridge, '#/activity');
    await user.click(await screen.findByRole('button', { name: 'Check payment now' }));
    expect(bridge.customerSaysPaid).toHaveBeenCalledWith({ saleId: 9 });
    const shop = screen.getByText('Shop').closest('li');
    expect(
      within(shop as HTMLElement)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Acknowledge']);
  });

  it('an alert main closed (its sale resolved) leaves the list and the header count follows', async () => {
    const bridge = withActivity();
    renderApp(bridge, '#/activity');
    expect(await screen.findByText(/Sale #5 was paid after/)).toBeTruthy();
    bridge.getStatus.mockImplementation(() => ok(status({ openAlerts: 0 })));
    bridge.emit({
      type: 'alert',
      payload: alert({ acknowledgedAt: T0 + 1, closedBy: 'recorded: Goods given by owner' }),
    });
    await waitFor(() => expect(screen.queryByText(/Sale #5 was paid after/)).toBeNull());
    expect(await screen.findByRole('link', { name: '0 open alerts' })).toBeTruthy();
  });
});
