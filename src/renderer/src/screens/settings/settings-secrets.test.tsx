import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { WHERE_KEYS_COME_FROM, type SecretsView } from '#shared/views';
import { fail, NOT_SET, ok, secretsView } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import {
  descriptionOf,
  fieldIn,
  findSection,
  settingsBridge,
} from '#support/renderer/settings-bridge';

const SECRET = 'sk_test_Zq81mWn4Lp9876';

async function secretGroup(section: string, label: string): Promise<HTMLElement> {
  return within(await findSection(section)).findByRole('group', { name: label });
}

function passwordIn(group: HTMLElement): HTMLInputElement {
  const input = group.querySelector('input[type="password"]');
  if (!(input instanceof HTMLInputElement)) throw new Error('no password input');
  return input;
}

/** The page's one Save: getByRole throws when a page has two. */
const saveButton = () => screen.getByRole('button', { name: /^Save/ });

describe('Settings screen: secrets', () => {
  it('sends a key, clears the field and never shows the key again', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.setSecret.mockImplementation(() =>
      ok({ set: true, last4: '9876', problem: null, boundOrigin: null }),
    );
    const { container } = renderApp(bridge, '#/settings');
    const group = await secretGroup('STAGING profile', 'Secret key');
    const input = passwordIn(group);
    expect(input.labels?.[0]?.textContent).toBe('Secret key');
    expect(within(group).getByTestId('secret-status').textContent).toBe('Not set');

    await user.type(input, SECRET);
    // While typed, React mirrors the value into the DOM: the check below can see a leak.
    expect(container.innerHTML).toContain(SECRET);
    await user.click(saveButton());

    await waitFor(() =>
      expect(bridge.setSecret).toHaveBeenCalledWith({
        scope: 'staging',
        name: 'secretKey',
        value: SECRET,
      }),
    );
    // The page's one Save: the profiles first, then the key.
    expect(bridge.updateSettings.mock.invocationCallOrder[0]).toBeLessThan(
      bridge.setSecret.mock.invocationCallOrder[0] ?? 0,
    );
    await waitFor(() =>
      expect(within(group).getByTestId('secret-status').textContent).toBe('Set, ends in 9876'),
    );
    expect(passwordIn(group).value).toBe('');
    expect(container.innerHTML).not.toContain(SECRET);
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(descriptionOf(passwordIn(group))).toBe('Set, ends in 9876');
  });

  it('saves the payout access token of the folded LIVE profile with the same Save', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.setSecret.mockImplementation(() =>
      ok({ set: true, last4: 'ab12', problem: null, boundOrigin: null }),
    );
    renderApp(bridge, '#/settings');
    const group = await secretGroup('LIVE profile', 'Payout access token');
    await user.type(passwordIn(group), 'tok-live-ab12');
    await user.click(saveButton());
    await waitFor(() => expect(bridge.setSecret).toHaveBeenCalledTimes(1));
    expect(bridge.setSecret).toHaveBeenCalledWith({
      scope: 'production',
      name: 'accessToken',
      value: 'tok-live-ab12',
    });
    await waitFor(() =>
      expect(within(group).getByTestId('secret-status').textContent).toBe('Set, ends in ab12'),
    );
  });

  it('keeps the saved keys when their fields are left blank', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    await secretGroup('STAGING profile', 'Secret key');
    await user.click(saveButton());
    await waitFor(() => expect(bridge.updateSettings).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(bridge.setSecret).not.toHaveBeenCalled();
  });

  it('shows the status of saved keys and the problem of an unusable one', async () => {
    const bridge = settingsBridge(undefined, (environment) =>
      environment === 'staging'
        ? secretsView({
            secretKey: { set: true, last4: '4321', problem: null, boundOrigin: null },
            accessToken: {
              set: true,
              last4: null,
              problem: 'This token was saved on another computer: enter it again.',
              boundOrigin: null,
            },
          })
        : secretsView(),
    );
    renderApp(bridge, '#/settings');
    const key = await secretGroup('STAGING profile', 'Secret key');
    await waitFor(() =>
      expect(within(key).getByTestId('secret-status').textContent).toBe('Set, ends in 4321'),
    );
    const token = await secretGroup('STAGING profile', 'Payout access token');
    expect(within(token).getByTestId('secret-status').textContent).toBe(
      'This token was saved on another computer: enter it again.',
    );
    const live = await secretGroup('LIVE profile', 'Secret key');
    expect(within(live).getByTestId('secret-status').textContent).toBe('Not set');
    expect(within(live).getByRole('button', { name: 'Remove the secret key' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('on the Environment page too, a new origin for the Base URL says the saved key must be entered again', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge(undefined, (environment) =>
      environment === 'staging'
        ? secretsView({
            secretKey: {
              set: true,
              last4: '4321',
              problem: null,
              boundOrigin: 'https://staging.provider.example',
            },
          })
        : secretsView(),
    );
    renderApp(bridge, '#/settings');
    const key = await secretGroup('STAGING profile', 'Secret key');
    await waitFor(() =>
      expect(within(key).getByTestId('secret-status').textContent).toBe('Set, ends in 4321'),
    );
    const base = fieldIn(await findSection('STAGING profile'), 'Base URL');
    await user.clear(base);
    await user.type(base, 'https://collector.example');
    expect(descriptionOf(base)).toContain(
      'Saved keys were entered for https://staging.provider.example; enter them again to use this address',
    );
    expect(within(key).getByTestId('secret-status').textContent).toBe(
      'Entered for https://staging.provider.example: enter it again to use it at this address',
    );
  });

  it('removes a key after a confirmation', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge(undefined, () =>
      secretsView({ secretKey: { set: true, last4: '4321', problem: null, boundOrigin: null } }),
    );
    bridge.setSecret.mockImplementation(() => ok(NOT_SET));
    renderApp(bridge, '#/settings');
    const group = await secretGroup('LIVE profile', 'Secret key');
    await waitFor(() =>
      expect(within(group).getByTestId('secret-status').textContent).toBe('Set, ends in 4321'),
    );
    await user.click(within(group).getByRole('button', { name: 'Remove the secret key' }));
    expect(bridge.setSecret).not.toHaveBeenCalled();
    await user.click(within(group).getByRole('button', { name: 'Yes, remove it' }));
    expect(bridge.setSecret).toHaveBeenCalledWith({
      scope: 'production',
      name: 'secretKey',
      value: null,
    });
    await waitFor(() =>
      expect(within(group).getByTestId('secret-status').textContent).toBe('Not set'),
    );
  });

  it('says why a key was not saved next to it, and keeps it typed (bad input loses nothing)', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.setSecret.mockImplementation(() =>
      fail('UNAVAILABLE', 'The keyring is locked: unlock it and try again.'),
    );
    const { container } = renderApp(bridge, '#/settings');
    const group = await secretGroup('STAGING profile', 'Secret key');
    await user.type(passwordIn(group), SECRET);
    await user.click(saveButton());
    expect((await within(group).findByRole('alert')).textContent).toBe(
      'The keyring is locked: unlock it and try again.',
    );
    expect(within(group).getByTestId('secret-status').textContent).toBe('Not set');
    expect(passwordIn(group).value).toBe(SECRET);
    expect(passwordIn(group).getAttribute('aria-invalid')).toBe('true');
    expect(
      screen
        .getAllByRole('alert')
        .some((alert) => alert.textContent?.includes('not the secret key')),
    ).toBe(true);
    // Only the typed field holds it: no message or status repeats the key.
    expect(container.innerHTML.split(SECRET).length - 1).toBe(1);
  });

  it('says where the keys come from next to the key fields of each environment', async () => {
    renderApp(settingsBridge(), '#/settings');
    for (const name of ['STAGING profile', 'LIVE profile']) {
      const keys = within(await findSection(name)).getByRole('group', { name: /keys$/ });
      expect(keys.textContent).toContain(WHERE_KEYS_COME_FROM);
    }
  });
});

describe('Settings screen: how secrets are kept', () => {
  it.each<[SecretsView['box']['kind'], string, boolean]>([
    ['os-keychain', "Secrets are encrypted with this computer's keyring.", false],
    [
      'os-plaintext-fallback',
      "This computer's keyring is not available: secrets are stored with basic protection only",
      true,
    ],
    ['file-key', 'Secrets are protected by a key file in the data folder', true],
  ])('explains the %s secret box', async (kind, words, warning) => {
    const bridge = settingsBridge(undefined, () =>
      secretsView({ box: { kind, description: 'Details from the secret box.' } }),
    );
    renderApp(bridge, '#/settings');
    const notice = await screen.findByTestId('secret-box');
    expect(notice.textContent).toContain(words);
    expect(notice.textContent).toContain('Details from the secret box.');
    expect(notice.className.includes('box-warning')).toBe(warning);
    expect(notice.getAttribute('role')).toBe(kind === 'os-plaintext-fallback' ? 'alert' : null);
  });
});

describe('Settings screen: test connection', () => {
  it('shows one line per check with what to do', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.testConnection.mockImplementation(() =>
      ok([
        { check: 'transactions', ok: true, message: 'The transaction listing answered.' },
        {
          check: 'balance',
          ok: false,
          code: 'PROVIDER_AUTH_REFUSED',
          message: 'The provider refused the payout access token.',
          advice: 'Ask the support team for a new token.',
        },
      ]),
    );
    renderApp(bridge, '#/settings');
    const staging = await findSection('STAGING profile');
    await user.click(within(staging).getByRole('button', { name: 'Test connection (STAGING)' }));
    expect(bridge.testConnection).toHaveBeenCalledWith({ environment: 'staging' });

    const transactions = await within(staging).findByTestId('check-transactions');
    expect(transactions.textContent).toBe('Transactions: OK — The transaction listing answered.');
    expect(transactions.className).toContain('check-ok');
    const balance = within(staging).getByTestId('check-balance');
    expect(balance.textContent).toBe(
      'Balance: Failed — The provider refused the payout access token. Ask the support team for a new token.',
    );
    expect(balance.className).toContain('check-failed');
  });

  it('tests the sandbox too, and says in words when the test itself fails', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.testConnection.mockImplementation(() => fail('BRIDGE_OFFLINE', 'offline'));
    renderApp(bridge, '#/settings');
    const sandbox = await findSection('SANDBOX profile');
    await user.click(within(sandbox).getByRole('button', { name: 'Test connection (SANDBOX)' }));
    expect(bridge.testConnection).toHaveBeenCalledWith({ environment: 'sandbox' });
    expect((await within(sandbox).findByRole('alert')).textContent).toContain(
      'The till service is not running',
    );
  });
});
