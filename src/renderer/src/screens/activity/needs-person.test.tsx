import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NEEDS_PERSON } from '#shared/sales';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { alert, fail, ok, sale, status, T0 } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

const SESSION = '100004261122090000000000000077';

function withNeedsPerson() {
  const bridge = createFakeBridge();
  bridge.getStatus.mockImplementation(() => ok(status({ openAlerts: 1 })));
  bridge.getActivity.mockImplementation(() =>
    ok({
      sales: [],
      inflows: [],
      alerts: [
        alert({
          id: 21,
          kind: NEEDS_PERSON,
          level: 'warning',
          saleId: null,
          sessionId: SESSION,
          action: null,
          message: '₦1,500.00 arrived in the shop\u2019s standing account.',
          candidates: [
            {
              saleId: 12,
              amountKobo: 150_000,
              amountDueKobo: 150_001,
              createdAt: T0,
              cashier: 'Ada',
            },
            {
              saleId: 13,
              amountKobo: 150_000,
              amountDueKobo: 150_002,
              createdAt: T0,
              cashier: null,
            },
          ],
        }),
      ],
      standingAccounts: [],
    }),
  );
  return bridge;
}

describe('a payment that needs a person', () => {
  it('names the sales it could be for, and one press gives it to the chosen one', async () => {
    const user = userEvent.setup();
    const bridge = withNeedsPerson();
    bridge.assignOutagePayment.mockImplementation(() =>
      ok(sale({ id: 13, state: 'paid', paidSessionId: SESSION })),
    );
    renderApp(bridge, '#/activity');
    const item = (await screen.findByText(/arrived in the shop/)).closest('li') as HTMLElement;
    expect(within(item).getByText('Needs a person.')).toBeTruthy();
    const candidates = within(item).getAllByTestId('alert-candidate');
    expect(candidates.map((c) => c.textContent)).toEqual([
      'Give to sale #12 asked ₦1,500.01 at 10:00 by Ada',
      'Give to sale #13 asked ₦1,500.02 at 10:00',
    ]);
    bridge.getStatus.mockImplementation(() => ok(status({ openAlerts: 0 })));
    await user.click(within(item).getByRole('button', { name: 'Give to sale #13' }));
    expect(bridge.assignOutagePayment).toHaveBeenCalledTimes(1);
    expect(bridge.assignOutagePayment).toHaveBeenCalledWith({ sessionId: SESSION, saleId: 13 });
    await waitFor(() => expect(screen.getByText('Nothing needs attention.')).toBeTruthy());
  });

  it("shows main's refusal in words and keeps the alert", async () => {
    const user = userEvent.setup();
    const bridge = withNeedsPerson();
    bridge.assignOutagePayment.mockImplementation(() =>
      fail('PAYMENT_NOT_ASSIGNABLE', 'That payment already went to sale #12.'),
    );
    renderApp(bridge, '#/activity');
    await user.click(await screen.findByRole('button', { name: 'Give to sale #12' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'That payment already went to sale #12.',
    );
    expect(screen.getByText(/arrived in the shop/)).toBeTruthy();
  });
});
