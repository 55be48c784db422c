import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import {
  cashierSession,
  counterSession,
  fail,
  ok,
  settings,
  settingsView,
  status,
} from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { settingsBridge } from '#support/renderer/settings-bridge';

/** A fresh till: main asks the shop's name until setShopName has it (as main does). */
function freshTill(bridge: FakeBridge = settingsBridge()): FakeBridge {
  let named: string | null = null;
  bridge.getStatus.mockImplementation(() =>
    ok(status({ shopName: named ?? 'My Shop', askShopName: named === null })),
  );
  bridge.setShopName.mockImplementation(({ name }) => {
    const trimmed = name.trim();
    if (trimmed === '')
      return fail('INVALID_SETTINGS', 'Shop name: Enter the shop name', 'shop.name');
    named = trimmed;
    return ok(
      settingsView({ settings: settings({ shop: { ...settings().shop, name: trimmed } }) }),
    );
  });
  return bridge;
}

const heading = { name: 'What will customers see?' } as const;

describe('the first start', () => {
  it('asks the shop name before the sale screen, previews it, and saves it in main', async () => {
    const user = userEvent.setup();
    const bridge = freshTill();
    renderApp(bridge, '#/sale');
    await screen.findByRole('region', heading);
    expect(screen.queryByRole('textbox', { name: /Amount/ })).toBeNull();

    const field = screen.getByRole('textbox', { name: /shop.*name/i });
    const preview = screen.getByTestId('account-name-preview');
    expect(preview.textContent).toBe('Account name: …');
    expect(screen.getByText(/bank app shows the account name, for example:/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Shop name: Enter the shop name');
    expect(field.getAttribute('aria-invalid')).toBe('true');

    await user.type(field, 'Mama Put Stores');
    expect(preview.textContent).toBe('Account name: Mama Put Stores');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(bridge.setShopName).toHaveBeenLastCalledWith({ name: 'Mama Put Stores' });

    // Step two: how to start; then the sale screen, and the footer names the shop.
    await screen.findByRole('region', { name: 'How do you want to start?' });
    expect(screen.getByRole('status').textContent).toContain('Mama Put Stores');
    await user.click(screen.getByRole('button', { name: 'Practise with the sandbox' }));
    expect(await screen.findByRole('textbox', { name: /Amount/ })).toBeTruthy();
    expect(screen.queryByRole('region', heading)).toBeNull();
    expect((await screen.findByTestId('app-version')).textContent).toContain('Mama Put Stores');
  });

  it('"Connect my provider" opens Settings at Connect provider', async () => {
    const user = userEvent.setup();
    renderApp(freshTill(), '#/sale');
    await user.type(
      await screen.findByRole('textbox', { name: /shop.*name/i }),
      'Iya Basira Provisions{Enter}',
    );
    await user.click(await screen.findByRole('button', { name: 'Connect my provider' }));
    expect(await screen.findByRole('region', { name: 'Connect your provider' })).toBeTruthy();
    expect(window.location.hash).toBe('#/settings/connect');
  });

  it('is not shown once main no longer asks (a named, upgraded or selling till)', async () => {
    const bridge = createFakeBridge();
    renderApp(bridge, '#/sale');
    expect(await screen.findByRole('textbox', { name: /Amount/ })).toBeTruthy();
    expect(screen.queryByRole('region', heading)).toBeNull();
  });

  it('a cashier cannot give the name: the owner unlocks here first', async () => {
    const bridge = freshTill();
    bridge.getSession.mockImplementation(() => ok(cashierSession()));
    renderApp(bridge, '#/sale');
    await screen.findByRole('region', heading);
    expect(screen.queryByRole('textbox', { name: /shop.*name/i })).toBeNull();
    expect(screen.getByText('Enter the owner PIN to give it.')).toBeTruthy();
    expect(screen.getByLabelText('Owner PIN')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /Amount/ })).toBeNull();
  });

  it('a paired counter is sent to the hub', async () => {
    const bridge = freshTill();
    bridge.getSession.mockImplementation(() => ok(counterSession()));
    renderApp(bridge, '#/sale');
    expect((await screen.findByTestId('shop-name-awaited')).textContent).toBe(
      'Ask the owner to give it at the hub.',
    );
    expect(screen.queryByRole('textbox', { name: /shop.*name/i })).toBeNull();
  });
});
