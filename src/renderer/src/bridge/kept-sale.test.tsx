import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { fail, ok, sale } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { keptSaleId } from './kept-sale';

beforeEach(() => {
  window.sessionStorage.clear();
});

describe('the open sale survives a reload', () => {
  it('keeps only the id of the sale on screen in the tab', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() => ok(sale({ id: 42 })));
    renderApp(bridge);
    await user.type(await screen.findByRole('textbox', { name: /Amount/ }), '1500{Enter}');
    await screen.findByTestId('sale-status');
    expect(keptSaleId(window.sessionStorage)).toBe(42);
    expect(window.sessionStorage.getItem('till.sale')).toBe('42');
  });

  it('after a reload, shows the sale as main has it now (paid meanwhile)', async () => {
    window.sessionStorage.setItem('till.sale', '42');
    const bridge = createFakeBridge();
    bridge.getSale.mockImplementation(() =>
      ok(sale({ id: 42, state: 'paid', paidAt: Date.now() })),
    );
    renderApp(bridge);
    const status = await screen.findByTestId('sale-status');
    expect(status.textContent).toContain('Paid');
    expect(bridge.getSale).toHaveBeenCalledWith({ saleId: 42 });
    expect(keptSaleId(window.sessionStorage)).toBe(42);
  });

  it('forgets a sale main no longer knows', async () => {
    window.sessionStorage.setItem('till.sale', '42');
    const bridge = createFakeBridge();
    bridge.getSale.mockImplementation(() => fail('SALE_NOT_FOUND', 'No such sale'));
    renderApp(bridge);
    await screen.findByRole('textbox', { name: /Amount/ });
    await expect.poll(() => window.sessionStorage.getItem('till.sale')).toBeNull();
  });

  it('ignores what is not a sale id', () => {
    for (const text of ['', 'abc', '-1', '0', '1.5', '9007199254740993']) {
      window.sessionStorage.setItem('till.sale', text);
      expect(keptSaleId(window.sessionStorage), text).toBeNull();
    }
  });
});
