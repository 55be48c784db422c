import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appInfo, ok, settings, settingsView } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import {
  descriptionOf,
  fieldIn,
  findSection,
  settingsBridge,
} from '#support/renderer/settings-bridge';

function desktopBridge(shell: 'electron' | 'browser', desktop = settings().desktop) {
  const bridge = settingsBridge(settingsView({ settings: settings({ desktop }) }));
  bridge.getAppInfo.mockImplementation(() => ok(appInfo({ shell })));
  return bridge;
}

describe('Desktop app settings', () => {
  it('starts with start at login off and updates off', async () => {
    const bridge = desktopBridge('electron');
    renderApp(bridge, '#/settings');
    const section = await findSection('Desktop app');
    // Let the section hear which shell it is in.
    await act(async () => {});
    expect(bridge.getAppInfo).toHaveBeenCalled();
    const login = within(section).getByRole('checkbox', {
      name: 'Start Transfer Till when I log in to this computer',
    });
    expect((login as HTMLInputElement).checked).toBe(false);
    expect(fieldIn(section, 'Update address').value).toBe('');
    expect(
      within(section).getByText('Updates are off: the till never looks for them.'),
    ).toBeTruthy();
    // The desktop app needs no note that these are for the desktop app.
    expect(within(section).queryByText(/This browser page keeps them/)).toBeNull();
  });

  it('saves start at login and an https update address', async () => {
    const user = userEvent.setup();
    const bridge = desktopBridge('electron');
    renderApp(bridge, '#/settings');
    const section = await findSection('Desktop app');
    await user.click(within(section).getByRole('checkbox', { name: /Start Transfer Till/ }));
    await user.type(fieldIn(section, 'Update address'), 'https://updates.example.ng/till/');
    await user.click(within(section).getByRole('button', { name: 'Save desktop settings' }));

    expect(await within(section).findByText('Saved.')).toBeTruthy();
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: {
        desktop: { startAtLogin: true, updateUrl: 'https://updates.example.ng/till/' },
      },
    });
    expect(
      within(section).getByText(/looks for a new version a few minutes after it starts/),
    ).toBeTruthy();
  });

  it('refuses an unencrypted update address next to the field, saving nothing', async () => {
    const user = userEvent.setup();
    const bridge = desktopBridge('electron');
    renderApp(bridge, '#/settings');
    const section = await findSection('Desktop app');
    const field = fieldIn(section, 'Update address');
    await user.type(field, 'http://updates.example.ng/till/');
    await user.click(within(section).getByRole('button', { name: 'Save desktop settings' }));

    expect(
      await within(section).findByText('Not saved yet: fix the fields marked in red.'),
    ).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(field)).toContain('The update address must start with https://');
    expect(bridge.updateSettings).not.toHaveBeenCalled();
  });

  it('turns updates off again by emptying the address', async () => {
    const user = userEvent.setup();
    const bridge = desktopBridge('electron', {
      startAtLogin: true,
      updateUrl: 'https://updates.example.ng/till/',
    });
    renderApp(bridge, '#/settings');
    const section = await findSection('Desktop app');
    await user.clear(fieldIn(section, 'Update address'));
    await user.click(within(section).getByRole('button', { name: 'Save desktop settings' }));
    expect(await within(section).findByText('Saved.')).toBeTruthy();
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: { desktop: { startAtLogin: true, updateUrl: '' } },
    });
    expect(
      within(section).getByText('Updates are off: the till never looks for them.'),
    ).toBeTruthy();
  });

  it('is not offered in the browser shell, which offers its own access page instead', async () => {
    renderApp(desktopBridge('browser'), '#/settings');
    expect(await screen.findByRole('tab', { name: 'Browser access' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Desktop app' })).toBeNull();
  });
});
