import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, ok, settings, settingsView, status } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import {
  descriptionOf,
  fieldIn,
  findSection,
  settingsBridge,
} from '#support/renderer/settings-bridge';

function tunnelBridge() {
  const bridge = settingsBridge();
  bridge.getStatus.mockImplementation(() =>
    ok(status({ callback: { mode: 'tunnel', live: false, tunnel: { state: 'connecting' } } })),
  );
  return bridge;
}

describe('Settings screen: callbacks', () => {
  it('shows the live tunnel status and follows tunnel events', async () => {
    const bridge = tunnelBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('Payment callbacks');
    await waitFor(() =>
      expect(within(section).getByTestId('tunnel-status').textContent).toBe('Tunnel connecting…'),
    );

    bridge.getSettings.mockImplementation(() =>
      ok(settingsView({ callbackUrl: 'https://shop-2.ngrok.app/callbacks/tok-abc' })),
    );
    bridge.emit({ type: 'tunnel', payload: { state: 'online', url: 'https://shop-2.ngrok.app' } });
    expect(within(section).getByTestId('tunnel-status').textContent).toBe(
      'Tunnel online at https://shop-2.ngrok.app',
    );
    // The address given to the provider is read again as the tunnel changes.
    await waitFor(() =>
      expect(within(section).getByTestId('callback-url').textContent).toBe(
        'https://shop-2.ngrok.app/callbacks/••••••••',
      ),
    );

    bridge.getSettings.mockImplementation(() =>
      ok(settingsView({ callbackUrl: null, callbackProblem: 'The tunnel is down.' })),
    );
    bridge.emit({
      type: 'tunnel',
      payload: {
        state: 'error',
        code: 'AUTH',
        message: 'ngrok refused the authtoken',
        retryInMs: 30_000,
      },
    });
    expect(within(section).getByTestId('tunnel-status').textContent).toBe(
      'Tunnel error: ngrok refused the authtoken Trying again in 30 s.',
    );
    await waitFor(() =>
      expect(within(section).getByTestId('callback-problem').textContent).toBe(
        'Polling only: The tunnel is down.',
      ),
    );
    expect(within(section).queryByTestId('callback-url')).toBeNull();
  });

  it('says the sandbox needs no tunnel', async () => {
    renderApp(settingsBridge(), '#/settings');
    const section = await findSection('Payment callbacks');
    await waitFor(() =>
      expect(within(section).getByTestId('tunnel-status').textContent).toContain(
        'the built-in sandbox calls this till directly',
      ),
    );
  });

  it('recommends a reserved ngrok domain and checks it is a bare domain', async () => {
    const user = userEvent.setup();
    renderApp(settingsBridge(), '#/settings');
    const section = await findSection('Payment callbacks');
    const domain = fieldIn(section, 'ngrok reserved domain');
    expect(descriptionOf(domain)).toContain('keeps the callback address fixed across restarts');
    await user.type(domain, 'https://my-shop.ngrok.app');
    expect(descriptionOf(domain)).toContain('Enter a domain name only, e.g. my-shop.ngrok.app');
  });

  it('saves the mode, port, domain and one IP range a line', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('Payment callbacks');
    await user.type(fieldIn(section, 'ngrok reserved domain'), 'mama-put.ngrok.app');
    const port = fieldIn(section, 'Listener port');
    await user.clear(port);
    await user.type(port, '8787');
    const ranges = fieldIn(section, 'Allowed IP ranges');
    await user.type(ranges, '102.89.0.0/16{Enter}{Enter}41.58.0.0/33');
    expect(descriptionOf(ranges)).toContain(
      '"41.58.0.0/33": Enter an IP address or range, e.g. 102.89.0.0/16',
    );
    await user.click(within(section).getByRole('button', { name: 'Save callback settings' }));
    expect(bridge.updateSettings).not.toHaveBeenCalled();

    await user.type(ranges, '{Backspace}1');
    expect(descriptionOf(ranges)).not.toContain('Enter an IP address');
    await user.click(within(section).getByRole('button', { name: 'Save callback settings' }));
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: {
        callbacks: {
          mode: 'ngrok',
          publicUrl: '',
          ngrokDomain: 'mama-put.ngrok.app',
          ngrokAllowCidrs: ['102.89.0.0/16', '41.58.0.0/31'],
          ngrokBasicAuthUser: '',
          listenerPort: 8787,
        },
      },
    });
  });

  it('asks for the public address when the shop uses its own', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('Payment callbacks');
    expect(within(section).queryByLabelText('Public address')).toBeNull();
    await user.click(within(section).getByRole('radio', { name: /The shop's own address/ }));
    await user.click(within(section).getByRole('button', { name: 'Save callback settings' }));
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    const publicUrl = fieldIn(section, 'Public address');
    expect(descriptionOf(publicUrl)).toContain('Enter the public address the provider should call');
    expect(document.activeElement).toBe(publicUrl);

    await user.type(publicUrl, 'https://till.mamaput.ng');
    await user.click(within(section).getByRole('button', { name: 'Save callback settings' }));
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: {
        callbacks: expect.objectContaining({
          mode: 'public-url',
          publicUrl: 'https://till.mamaput.ng',
        }) as unknown,
      },
    });
  });

  it('shows why the till is polling only', async () => {
    const view = settingsView({
      settings: settings({ callbacks: { ...settings().callbacks, mode: 'polling-only' } }),
      callbackUrl: null,
      callbackProblem: 'Callbacks are turned off in settings.',
    });
    renderApp(settingsBridge(view), '#/settings');
    const section = await findSection('Payment callbacks');
    expect(within(section).getByTestId('callback-problem').textContent).toBe(
      'Polling only: Callbacks are turned off in settings.',
    );
    expect(within(section).queryByLabelText('Listener port')).toBeNull();
    expect(within(section).queryByLabelText('ngrok authtoken')).toBeNull();
  });

  it('saves the ngrok authtoken as the one global secret', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.setSecret.mockImplementation(() =>
      ok({ set: true, last4: 'XyZ9', problem: null, boundOrigin: null }),
    );
    const { container } = renderApp(bridge, '#/settings');
    const section = await findSection('Payment callbacks');
    const group = within(section).getByRole('group', { name: 'ngrok authtoken' });
    const input = group.querySelector('input[type="password"]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no password input');
    await user.type(input, '2abcDEFghiXyZ9');
    // One Save on the page: the settings, then the token.
    expect(within(section).getAllByRole('button', { name: /^Save/ })).toHaveLength(1);
    await user.click(within(section).getByRole('button', { name: 'Save callback settings' }));
    await waitFor(() =>
      expect(bridge.setSecret).toHaveBeenCalledWith({
        scope: 'global',
        name: 'ngrokAuthtoken',
        value: '2abcDEFghiXyZ9',
      }),
    );
    expect(bridge.updateSettings).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(within(group).getByTestId('secret-status').textContent).toBe('Set, ends in XyZ9'),
    );
    expect(container.innerHTML).not.toContain('2abcDEFghiXyZ9');
  });

  it('saves the basic-auth user with the settings and its password as a global secret', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.setSecret.mockImplementation(() =>
      ok({ set: true, last4: '8841', problem: null, boundOrigin: null }),
    );
    const { container } = renderApp(bridge, '#/settings');
    const section = await findSection('Payment callbacks');
    await user.type(within(section).getByLabelText(/Basic-auth user/), 'shopfront');
    const group = within(section).getByRole('group', { name: /Basic-auth password/ });
    const input = group.querySelector('input[type="password"]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no password input');
    await user.type(input, 'edge-pass-8841');
    await user.click(within(section).getByRole('button', { name: 'Save callback settings' }));
    await waitFor(() =>
      expect(bridge.setSecret).toHaveBeenCalledWith({
        scope: 'global',
        name: 'ngrokBasicAuthPassword',
        value: 'edge-pass-8841',
      }),
    );
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: {
        callbacks: expect.objectContaining({ ngrokBasicAuthUser: 'shopfront' }) as unknown,
      },
    });
    await waitFor(() =>
      expect(within(group).getByTestId('secret-status').textContent).toBe('Set, ends in 8841'),
    );
    expect(container.innerHTML).not.toContain('edge-pass-8841');
    // Named in a sentence as the service's password, not with the field's "(optional)".
    await user.click(
      within(group).getByRole('button', { name: 'Remove the ngrok basic-auth password' }),
    );
    const confirm = within(group).getByRole('group', {
      name: 'Remove the ngrok basic-auth password?',
    });
    expect(confirm.textContent).toContain('Remove the ngrok basic-auth password? What needs it');
  });

  it('rotates the callback address and says the old one works for a day', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.rotateCallbackToken.mockImplementation(() => ok({ rotated: true }));
    renderApp(bridge, '#/settings');
    const section = await findSection('Payment callbacks');
    expect(section.textContent).toContain('the old one keeps working for a day');
    bridge.getSettings.mockImplementation(() =>
      ok(settingsView({ callbackUrl: 'https://shop-1.ngrok.app/callbacks/tok-new' })),
    );
    await user.click(within(section).getByRole('button', { name: 'Rotate callback address' }));
    expect(bridge.rotateCallbackToken).toHaveBeenCalledWith({});
    expect((await within(section).findByRole('status')).textContent).toContain(
      'The old address keeps working for a day',
    );
    // The secret part shows only when asked for.
    await user.click(within(section).getByRole('button', { name: 'Show the whole address' }));
    await waitFor(() =>
      expect(within(section).getByTestId('callback-url').textContent).toBe(
        'https://shop-1.ngrok.app/callbacks/tok-new',
      ),
    );
    await user.click(within(section).getByRole('button', { name: 'Hide the secret part' }));
    expect(within(section).getByTestId('callback-url').textContent).not.toContain('tok-new');
  });

  it('says in words when rotating fails', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.rotateCallbackToken.mockImplementation(() => fail('BRIDGE_OFFLINE', 'offline'));
    renderApp(bridge, '#/settings');
    const section = await findSection('Payment callbacks');
    await user.click(within(section).getByRole('button', { name: 'Rotate callback address' }));
    expect((await within(section).findByRole('alert')).textContent).toContain('not running');
    await user.click(within(section).getByRole('button', { name: 'Show the whole address' }));
    expect(screen.getByTestId('callback-url').textContent).toContain('tok-abc');
  });
});
