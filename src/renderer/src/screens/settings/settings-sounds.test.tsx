import { act, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { playChime } from '../../components/chime';
import type { FakeBridge } from '#support/renderer/fake-bridge';
import { ok, sale, settings, settingsView } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { findSection, settingsBridge } from '#support/renderer/settings-bridge';

// The chime itself is tested in chime.test.ts; here only whether and how loud it is asked for.
vi.mock('../../components/chime', () => ({
  DEFAULT_CHIME_VOLUME: 0.6,
  playChime: vi.fn(() => true),
}));

afterEach(() => {
  vi.mocked(playChime).mockClear();
});

function goTo(hash: string): void {
  act(() => {
    window.location.hash = hash;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });
}

/** Sells ₦1,500 from the sale screen and has the bank say it is paid. */
async function sellAndGetPaid(bridge: FakeBridge, user: UserEvent): Promise<void> {
  bridge.createSale.mockImplementation(() => ok(sale()));
  goTo('#/sale');
  await user.type(await screen.findByRole('textbox', { name: /Amount/ }), '1500{Enter}');
  await screen.findByTestId('sale-status');
  bridge.emit({
    type: 'sale-changed',
    payload: sale({ state: 'paid', paidAt: Date.now(), updatedAt: Date.now() + 1 }),
  });
  expect(screen.getByTestId('sale-status').textContent).toContain('Paid');
}

describe('Sounds settings reach the chime', () => {
  it('chimes at the saved volume', async () => {
    const user = userEvent.setup();
    const view = settingsView({ settings: settings({ sounds: { enabled: true, volume: 0.25 } }) });
    const bridge = settingsBridge(view);
    renderApp(bridge, '#/sale');
    await sellAndGetPaid(bridge, user);
    expect(playChime).toHaveBeenCalledTimes(1);
    expect(playChime).toHaveBeenCalledWith(window, 0.25);
  });

  it('stays silent when sounds are off', async () => {
    const user = userEvent.setup();
    const view = settingsView({ settings: settings({ sounds: { enabled: false, volume: 0.6 } }) });
    const bridge = settingsBridge(view);
    renderApp(bridge, '#/sale');
    await sellAndGetPaid(bridge, user);
    expect(playChime).not.toHaveBeenCalled();
  });

  it('follows a change saved on the settings screen without a restart', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('Sync, backups and sounds');
    await user.click(
      within(section).getByRole('checkbox', { name: 'Play a chime when a sale is paid' }),
    );
    await user.click(within(section).getByRole('button', { name: /Save sync/ }));
    expect(await within(section).findByText('Saved.')).toBeTruthy();

    await sellAndGetPaid(bridge, user);
    expect(playChime).not.toHaveBeenCalled();
  });
});
