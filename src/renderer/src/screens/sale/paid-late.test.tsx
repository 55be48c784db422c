import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SaleView } from '#shared/sales';
import type { ExceptionResolution } from '#shared/views';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import { cashierSession, counterSession, fail, ok, sale } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { formatTime } from '../../format';

const NOW = Date.now();
const KEY = 'paid_late:sale:7';

function resolution(overrides: Partial<ExceptionResolution> = {}): ExceptionResolution {
  return {
    action: 'goods_given',
    bankReference: null,
    note: null,
    resolvedBy: 'owner',
    resolvedAt: NOW + 5_000,
    ...overrides,
  };
}

/** A ₦2,000 sale on screen, then the event that says money came after it closed. */
async function paidAfter(
  bridge: FakeBridge,
  user: UserEvent,
  after: SaleView['paidAfter'],
  extra: Partial<SaleView> = {},
): Promise<HTMLElement> {
  bridge.createSale.mockImplementation(() => ok(sale({ amountKobo: 200_000 })));
  renderApp(bridge);
  await user.type(screen.getByRole('textbox', { name: /Amount/ }), '2000{Enter}');
  await screen.findByTestId('sale-status');
  bridge.emit({
    type: 'sale-changed',
    payload: sale({
      amountKobo: 200_000,
      state: 'paid_late',
      paidAfter: after,
      paidAt: NOW,
      updatedAt: Date.now() + 1_000,
      ...extra,
    }),
  });
  return screen.getByTestId('sale-status');
}

describe('Sale screen: the cancel question', () => {
  it('says the number stays payable until its expiry, with the time', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    const expiresAt = NOW + 15 * 60_000;
    bridge.createSale.mockImplementation(() => ok(sale({ expiresAt })));
    renderApp(bridge);
    await user.type(screen.getByRole('textbox', { name: /Amount/ }), '1500{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    const question = screen.getByRole('group', { name: 'Cancel this sale?' });
    expect(within(question).getByTestId('cancel-still-payable').textContent).toBe(
      `The customer can still pay into 012 345 6789 until ${formatTime(expiresAt)}. If money arrives after you cancel, the till will tell you.`,
    );
    expect(question.textContent).not.toMatch(/manager/);
  });
});

describe('Sale screen: money after the sale closed', () => {
  it('after a cancel: amber words with the amount, no tick, no green paid banner', async () => {
    const user = userEvent.setup();
    const status = await paidAfter(createFakeBridge(), user, 'cancelled');
    expect(status.textContent).toBe(
      '₦2,000.00 arrived after you cancelled: give the goods or refundSale #7',
    );
    expect(status.className).toContain('status-paid_late');
    expect(status.className).not.toMatch(/status-paid(\s|$)/);
    expect(status.textContent).not.toContain('✓');
    expect(screen.queryByTestId('paid-amount')).toBeNull();
    expect(screen.getByRole('button', { name: 'Gave the goods' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refunded' })).toBeTruthy();
  });

  it('after expiry: asks whether the customer is still here', async () => {
    const user = userEvent.setup();
    const status = await paidAfter(createFakeBridge(), user, 'expired');
    expect(status.textContent).toBe(
      '₦2,000.00 arrived after the sale expired: is the customer still here? Give the goods or refundSale #7',
    );
  });

  it('"Gave the goods" records the report\'s resolution of the same case, then shows it done', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.resolveException.mockImplementation(() => ok({ key: KEY, resolution: resolution() }));
    await paidAfter(bridge, user, 'cancelled');
    await user.click(screen.getByRole('button', { name: 'Gave the goods' }));
    expect(bridge.resolveException).toHaveBeenCalledWith({
      key: KEY,
      action: 'goods_given',
      bankReference: null,
    });
    const done = await screen.findByTestId('paid-late-done');
    expect(done.textContent).toMatch(/^Done: Goods given · by owner · /);
    expect(screen.queryByRole('button', { name: 'Gave the goods' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Refunded' })).toBeNull();
  });

  it('"Refunded" asks for the bank reference of the refund, and shows main\'s refusal without one', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.resolveException.mockImplementationOnce(() =>
      fail(
        'BANK_REFERENCE_REQUIRED',
        'Enter the bank reference of the refund transfer (it is on the transfer receipt).',
        'bankReference',
      ),
    );
    bridge.resolveException.mockImplementationOnce(() =>
      ok({ key: KEY, resolution: resolution({ action: 'refunded', bankReference: 'RF-88' }) }),
    );
    await paidAfter(bridge, user, 'expired');
    await user.click(screen.getByRole('button', { name: 'Refunded' }));
    expect(bridge.resolveException).not.toHaveBeenCalled();
    const field = screen.getByRole('textbox', { name: 'Bank reference of the refund transfer' });
    await user.click(screen.getByRole('button', { name: 'Save refund' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    await user.type(field, 'RF-88');
    await user.click(screen.getByRole('button', { name: 'Save refund' }));
    expect(bridge.resolveException).toHaveBeenLastCalledWith({
      key: KEY,
      action: 'refunded',
      bankReference: 'RF-88',
    });
    expect((await screen.findByTestId('paid-late-done')).textContent).toMatch(
      /^Done: Refunded by transfer \(bank reference RF-88\) · by owner · /,
    );
  });

  it('shows what the owner recorded on the report, when the sale comes again with it', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    await paidAfter(bridge, user, 'cancelled');
    bridge.emit({
      type: 'sale-changed',
      payload: sale({
        amountKobo: 200_000,
        state: 'paid_late',
        paidAfter: 'cancelled',
        updatedAt: Date.now() + 2_000,
        lateResolution: resolution({ resolvedBy: 'Funmi' }),
      }),
    });
    expect(screen.getByTestId('paid-late-done').textContent).toMatch(/Goods given · by Funmi/);
  });

  it.each([
    ['a cashier', cashierSession()],
    ['a paired counter', counterSession()],
  ])('tells %s who records it, with no buttons main would refuse', async (_who, session) => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.getSession.mockImplementation(() => ok(session));
    const status = await paidAfter(bridge, user, 'cancelled');
    expect(status.textContent).toContain('give the goods or refund');
    await waitFor(() =>
      expect(screen.getByTestId('paid-late-choices').textContent).toBe(
        'An owner records what was done on the report.',
      ),
    );
    expect(screen.queryByRole('button', { name: 'Gave the goods' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Refunded' })).toBeNull();
  });
});
