import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '#support/renderer/render-app';
import { fail, hubView, lanListener, ok } from '#support/renderer/fixtures';
import {
  descriptionOf,
  fieldIn,
  findSection,
  settingsBridge,
} from '#support/renderer/settings-bridge';
import { SETTINGS_PAGES } from './settings-pages';

async function openShopHub(bridge = settingsBridge()) {
  renderApp(bridge, '#/settings/hub');
  const section = await findSection('Shop hub');
  return { bridge, section };
}

describe('Settings → Shop hub', () => {
  it('is a tab of its own, named as the Counters screen names it', async () => {
    expect(SETTINGS_PAGES.find((page) => page.id === 'hub')?.label).toBe('Shop hub');
    await openShopHub();
    expect(screen.getByRole('tab', { name: 'Shop hub', selected: true })).toBeTruthy();
  });

  it('shows the LAN listener as the Counters screen does: on, where counters reach it', async () => {
    const { section } = await openShopHub();
    const listener = await within(section).findByRole('region', { name: 'LAN listener' });
    expect(within(listener).getByTestId('lan-state').textContent).toBe('On');
    expect(within(listener).getByTestId('lan-url').textContent).toBe('https://192.168.1.20:7443/');
    expect(
      within(listener).getByRole('switch', { name: /Let counters on the shop.s network connect/ }),
    ).toBeTruthy();
  });

  it('saves all addresses and the LAN port by default, and one address when chosen', async () => {
    const user = userEvent.setup();
    const { bridge, section } = await openShopHub();
    expect(
      within(section).getByRole('radio', { name: 'All addresses of this computer' }),
    ).toHaveProperty('checked', true);
    const port = fieldIn(section, /LAN port/);
    expect(port.value).toBe('7443');
    await user.clear(port);
    await user.type(port, '8443');
    await user.click(within(section).getByRole('button', { name: 'Save shop hub' }));
    expect(bridge.updateSettings).toHaveBeenLastCalledWith({
      patch: { hub: { lanHost: '0.0.0.0', lanPort: 8443 } },
    });
    expect(await within(section).findByText('Saved.')).toBeTruthy();

    await user.click(
      within(section).getByRole('radio', { name: 'Only one address of this computer' }),
    );
    const address = fieldIn(section, /LAN address/);
    expect(descriptionOf(address)).toContain('This computer has 192.168.1.20 now.');
    // It starts from this computer's address on the shop's network.
    expect(address.value).toBe('192.168.1.20');
    await user.click(within(section).getByRole('button', { name: 'Save shop hub' }));
    expect(bridge.updateSettings).toHaveBeenLastCalledWith({
      patch: { hub: { lanHost: '192.168.1.20', lanPort: 8443 } },
    });
  });

  it('refuses what is not an IP address next to the field, in shop words, before asking main', async () => {
    const user = userEvent.setup();
    const { bridge, section } = await openShopHub();
    await user.click(
      within(section).getByRole('radio', { name: 'Only one address of this computer' }),
    );
    const address = fieldIn(section, /LAN address/);
    await user.clear(address);
    await user.type(address, 'shop-pc.local');
    await user.click(within(section).getByRole('button', { name: 'Save shop hub' }));
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    expect(descriptionOf(address)).toContain(
      'Enter an address of this computer like 192.168.1.20, or choose "All addresses of this computer"',
    );
    expect(address.getAttribute('aria-invalid')).toBe('true');
  });

  it("shows main's refusal of a taken port next to the LAN port", async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.updateSettings.mockImplementation(() =>
      fail(
        'INVALID_SETTINGS',
        'LAN port: Port 8443 is in use by another program: choose another port, or close that program. Counters still reach this till on port 7443.',
        'hub.lanPort',
      ),
    );
    const { section } = await openShopHub(bridge);
    const port = fieldIn(section, /LAN port/);
    await user.clear(port);
    await user.type(port, '8443');
    await user.click(within(section).getByRole('button', { name: 'Save shop hub' }));
    expect(
      await within(section).findByText('Not saved: see the message next to the field.'),
    ).toBeTruthy();
    expect(descriptionOf(port)).toContain(
      'Port 8443 is in use by another program: choose another port, or close that program. Counters still reach this till on port 7443.',
    );
    expect(document.activeElement).toBe(port);
  });

  it('says when a start flag holds the address for this run, and why the listener is not running', async () => {
    const bridge = settingsBridge();
    bridge.getHub.mockImplementation(() =>
      ok(
        hubView({
          lan: lanListener({
            running: false,
            url: null,
            fingerprint: null,
            setForThisRun: true,
            problem:
              'Port 7443 is in use by another program. Choose another LAN port in Settings → Shop hub, or close that program.',
          }),
        }),
      ),
    );
    const { section } = await openShopHub(bridge);
    expect((await within(section).findByTestId('lan-problem')).textContent).toContain(
      'Choose another LAN port in Settings → Shop hub',
    );
    expect(within(section).getByRole('note').textContent).toContain(
      'what you save here applies from the next start',
    );
  });
});
