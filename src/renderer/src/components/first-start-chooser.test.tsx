import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '#shared/settings-schema';
import { settings, settingsView } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { settingsBridge } from '#support/renderer/settings-bridge';

/** A till straight out of the box: the sandbox, no provider entered. */
const fresh = () => settingsView({ settings: settings({ profiles: DEFAULT_SETTINGS.profiles }) });

afterEach(() => window.localStorage.clear());

describe('the first start: practise or connect', () => {
  it('offers both, and "Connect my provider" opens the go-live flow; asked once', async () => {
    const user = userEvent.setup();
    const first = renderApp(settingsBridge(fresh()), '#/settings');
    await screen.findByRole('region', { name: 'How do you want to start?' });
    expect(screen.getByRole('button', { name: 'Practise with the sandbox' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Connect my provider' }));
    expect(await screen.findByRole('region', { name: 'Connect your provider' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'How do you want to start?' })).toBeNull();
    first.unmount();
    renderApp(settingsBridge(fresh()), '#/settings');
    await screen.findByRole('tablist', { name: 'Settings pages' });
    expect(screen.queryByRole('region', { name: 'How do you want to start?' })).toBeNull();
  });

  it('is not asked of a till that has a provider entered', async () => {
    renderApp(settingsBridge(), '#/settings');
    await screen.findByRole('tablist', { name: 'Settings pages' });
    expect(screen.queryByRole('region', { name: 'How do you want to start?' })).toBeNull();
  });
});
