import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appInfo, fail, ok, settings, settingsView } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import {
  descriptionOf,
  fieldIn,
  findSection,
  settingsBridge,
} from '#support/renderer/settings-bridge';

/** The page's one Save: getByRole throws when a page has two. */
const saveButton = () => screen.getByRole('button', { name: /^Save/ });

describe('Settings screen: loading', () => {
  it('shows the saved settings in every section', async () => {
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    expect((await screen.findByTestId('current-environment')).textContent).toBe('SANDBOX');

    const staging = await findSection('STAGING profile');
    expect(fieldIn(staging, 'Base URL').value).toBe('https://staging.provider.example');
    expect(fieldIn(staging, 'Merchant ID').value).toBe('MRC-STAGE-1');
    expect(fieldIn(staging, 'Merchant category').value).toBe('others');
    expect(fieldIn(staging, 'Default expiry (minutes)').value).toBe('15');
    expect(fieldIn(staging, 'Payout account number').value).toBe('1234567890');

    const shop = await findSection('Shop and till');
    expect(fieldIn(shop, 'Shop name').value).toBe('Mama Put Stores');
    expect(fieldIn(shop, 'Time zone').value).toBe('Africa/Lagos');
    expect(
      within(within(shop).getByRole('list', { name: 'Cashiers' }))
        .getAllByRole('listitem')
        .map((item) => item.querySelector('.cashier-name')?.textContent),
    ).toEqual(['Ada', 'Bola']);

    const callbacks = await findSection('Payment callbacks');
    // The path token is a secret: masked until the owner asks to see it.
    expect(within(callbacks).getByTestId('callback-url').textContent).toBe(
      'https://shop-1.ngrok.app/callbacks/••••••••',
    );
    expect(bridge.getSecrets).toHaveBeenCalledWith({ environment: 'staging' });
    expect(bridge.getSecrets).toHaveBeenCalledWith({ environment: 'production' });
  });

  it('says so in words when the settings cannot be read', async () => {
    const bridge = settingsBridge();
    bridge.getSettings.mockImplementation(() => fail('BRIDGE_OFFLINE', 'offline'));
    renderApp(bridge, '#/settings');
    await waitFor(() =>
      expect(
        screen.getAllByRole('alert').some((alert) => alert.textContent?.includes('not running')),
      ).toBe(true),
    );
    expect(screen.queryByRole('region', { name: 'Environment' })).toBeNull();
  });
});

describe('Settings screen: profiles', () => {
  it('shows the schema message next to a field as it is typed, and clears it when fixed', async () => {
    const user = userEvent.setup();
    renderApp(settingsBridge(), '#/settings');
    const staging = await findSection('STAGING profile');
    const baseUrl = fieldIn(staging, 'Base URL');

    await user.clear(baseUrl);
    await user.type(baseUrl, 'api.provider.example');
    expect(baseUrl.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(baseUrl)).toContain('Enter a full address, e.g. https://api.example.com');

    // The cross-field rule of the schema: staging must use https.
    await user.clear(baseUrl);
    await user.type(baseUrl, 'http://api.provider.example');
    expect(descriptionOf(baseUrl)).toContain('The staging address must start with https://');

    await user.clear(baseUrl);
    await user.type(baseUrl, 'https://api.provider.example');
    expect(baseUrl.getAttribute('aria-invalid')).toBe('false');
    expect(descriptionOf(baseUrl)).not.toContain('must');

    const expiry = fieldIn(staging, 'Default expiry (minutes)');
    await user.clear(expiry);
    await user.type(expiry, '0');
    expect(descriptionOf(expiry)).toContain('At least 1 minute');
    await user.clear(expiry);
    await user.type(expiry, 'ten');
    expect(descriptionOf(expiry)).toContain('Enter a number of minutes');
  });

  it('shows a message on blur for an untouched field only after it was visited', async () => {
    const user = userEvent.setup();
    const view = settingsView({
      settings: settings({
        profiles: {
          ...settings().profiles,
          production: { ...settings().profiles.production, accountName: '' },
        },
      }),
    });
    renderApp(settingsBridge(view), '#/settings');
    const live = await findSection('LIVE profile');
    const accountName = fieldIn(live, 'Account display name');
    expect(descriptionOf(accountName)).not.toContain('Enter the name customers see');
    await user.click(accountName);
    await user.tab();
    expect(descriptionOf(accountName)).toContain('Enter the name customers see on the account');
  });

  it('refuses to save with a field problem and moves the focus to it', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const staging = await findSection('STAGING profile');
    const payout = fieldIn(staging, 'Payout account number');
    await user.clear(payout);
    await user.type(payout, '12-34');
    await user.click(saveButton());
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(payout);
    expect(descriptionOf(payout)).toContain('Digits only');
    expect(screen.getByRole('alert').textContent).toContain('fix the fields marked');
  });

  it('saves a profile as a patch of that profile only', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const staging = await findSection('STAGING profile');
    await user.clear(fieldIn(staging, 'Merchant ID'));
    await user.type(fieldIn(staging, 'Merchant ID'), 'MRC-2');
    await user.clear(fieldIn(staging, 'Default expiry (minutes)'));
    await user.type(fieldIn(staging, 'Default expiry (minutes)'), '30');
    await user.click(saveButton());

    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: {
        profiles: expect.objectContaining({
          staging: {
            baseUrl: 'https://staging.provider.example',
            payoutBaseUrl: 'https://payouts.staging.provider.example',
            merchantId: 'MRC-2',
            merchantCategory: 'others',
            accountName: 'Mama Put Stores',
            expiryMinutes: 30,
            payoutAccountId: '1234567890',
          },
        }) as unknown,
      },
    });
    expect((await screen.findByText('Saved.')).getAttribute('role')).toBe('status');
  });

  it('keeps the sandbox profile to what the built-in sandbox uses', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const sandbox = await findSection('SANDBOX profile');
    expect(sandbox.textContent).toContain('built-in sandbox provider');
    expect(within(sandbox).queryByLabelText('Base URL')).toBeNull();
    expect(within(sandbox).queryByLabelText('Secret key')).toBeNull();
    await user.clear(fieldIn(sandbox, 'Account display name'));
    await user.type(fieldIn(sandbox, 'Account display name'), 'Practice Till');
    await user.click(saveButton());
    // The sandbox's part of the page's one patch: only what the built-in sandbox uses.
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: {
        profiles: expect.objectContaining({
          sandbox: {
            merchantCategory: 'others',
            accountName: 'Practice Till',
            expiryMinutes: 15,
            sandboxUrl: '',
          },
        }) as unknown,
      },
    });
  });

  it("puts the server's field error next to the field, without the field's name", async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.updateSettings.mockImplementation(() =>
      fail(
        'INVALID_SETTINGS',
        'Default expiry (minutes) (production): At most 1440 minutes (a day)',
        'profiles.production.expiryMinutes',
      ),
    );
    renderApp(bridge, '#/settings');
    const live = await findSection('LIVE profile');
    await user.click(saveButton());

    const expiry = fieldIn(live, 'Default expiry (minutes)');
    await waitFor(() => expect(expiry.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(expiry)).toContain('At most 1440 minutes (a day)');
    expect(descriptionOf(expiry)).not.toContain('Default expiry');
    expect(document.activeElement).toBe(expiry);
    expect(screen.getByRole('alert').textContent).toContain('Not saved');

    // Editing the field takes the server's old word back.
    await user.type(expiry, '5');
    expect(descriptionOf(expiry)).not.toContain('At most 1440');
  });

  it('says in words why a save failed for a reason that is not a field', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.updateSettings.mockImplementation(() => fail('BRIDGE_OFFLINE', 'socket closed'));
    renderApp(bridge, '#/settings');
    await findSection('STAGING profile');
    await user.click(saveButton());
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The till service is not running',
    );
  });
});

describe('Settings screen: environment', () => {
  it('switches to STAGING at once and the header follows', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('Environment');
    await user.click(within(section).getByRole('radio', { name: /STAGING/ }));
    bridge.getAppInfo.mockImplementation(() => ok(appInfo({ environment: 'staging' })));
    expect(saveButton().textContent).toBe('Save and switch to STAGING');
    await user.click(saveButton());

    // The profiles first, the switch last (a LIVE switch finds its keys in place).
    await waitFor(() =>
      expect(bridge.updateSettings).toHaveBeenLastCalledWith({ patch: { environment: 'staging' } }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('current-environment').textContent).toBe('STAGING'),
    );
    await waitFor(() =>
      expect(screen.getByTestId('environment-badge').textContent).toBe('STAGING'),
    );
  });

  it('asks in plain words before going LIVE, and does nothing on "no"', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('Environment');
    await user.click(within(section).getByRole('radio', { name: /LIVE/ }));
    await user.click(saveButton());

    const question = screen.getByRole('group', { name: 'Switch to LIVE?' });
    expect(question.textContent).toContain('Real money: sales will create real accounts');
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(
      within(question).getByRole('button', { name: 'Yes, switch to LIVE' }),
    );

    await user.click(within(question).getByRole('button', { name: 'No, stay on SANDBOX' }));
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    expect(within(section).getByRole<HTMLInputElement>('radio', { name: /SANDBOX/ }).checked).toBe(
      true,
    );

    await user.click(within(section).getByRole('radio', { name: /LIVE/ }));
    await user.click(saveButton());
    await user.click(screen.getByRole('button', { name: 'Yes, switch to LIVE' }));
    await waitFor(() =>
      expect(bridge.updateSettings).toHaveBeenLastCalledWith({
        patch: { environment: 'production' },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('current-environment').textContent).toBe('LIVE'));
  });
});
