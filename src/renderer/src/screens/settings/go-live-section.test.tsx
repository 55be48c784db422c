import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { GoLiveCheckView } from '#shared/go-live';
import { fail, ok, secretsView, settings, settingsView } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import {
  descriptionOf,
  fieldIn,
  findSection,
  settingsBridge,
} from '#support/renderer/settings-bridge';

const PASSED: GoLiveCheckView = {
  environment: 'staging',
  passed: true,
  openSales: 2,
  lines: [
    {
      check: 'connection',
      ok: true,
      title: 'Provider connection',
      message: 'Connected.',
      advice: null,
    },
    { check: 'balance', ok: true, title: 'Payout balance', message: '₦10.00', advice: null },
    {
      check: 'callbacks',
      ok: true,
      title: 'Payment news (callbacks)',
      message: 'A test came back.',
      advice: null,
    },
  ],
};

describe('Settings: Connect your provider', () => {
  it('saves profile, keys and route with one Save, checks everything, and asks before switching with open sales', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.saveConnection.mockImplementation(async (input) =>
      ok({
        environment: input.environment,
        settings: settingsView(),
        secrets: secretsView(),
        listenerMoved: false,
        openSales: 2,
      }),
    );
    bridge.checkEverything.mockImplementation(() => ok(PASSED));
    renderApp(bridge, '#/settings/connect');
    const flow = await findSection('Connect your provider');
    const base = fieldIn(flow, 'Base URL');
    await user.clear(base);
    await user.type(base, 'http://127.0.0.1:4010');
    await user.type(fieldIn(flow, 'Secret key'), 'sk_test_12345678');
    await user.click(within(flow).getByRole('radio', { name: /The shop's own address/ }));
    await user.type(fieldIn(flow, 'Public address'), 'http://127.0.0.1:4555');
    await user.click(within(flow).getByRole('button', { name: 'Save STAGING connection' }));
    await waitFor(() => expect(bridge.saveConnection).toHaveBeenCalledTimes(1));
    const input = bridge.saveConnection.mock.calls[0]?.[0];
    expect(input).toMatchObject({
      environment: 'staging',
      profile: { baseUrl: 'http://127.0.0.1:4010' },
      callbacks: { mode: 'public-url', publicUrl: 'http://127.0.0.1:4555' },
      secrets: { secretKey: 'sk_test_12345678' },
    });
    // The key is sent, then gone from the screen.
    expect(fieldIn(flow, 'Secret key').value).toBe('');

    await user.click(within(flow).getByRole('button', { name: 'Check everything' }));
    const results = await within(flow).findByRole('list', { name: 'Check results' });
    expect(
      within(results)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '✓ Provider connection Connected.',
      '✓ Payout balance ₦10.00',
      '✓ Payment news (callbacks) A test came back.',
    ]);

    await user.click(within(flow).getByRole('button', { name: 'Switch to STAGING' }));
    expect(within(flow).getByRole('alert').textContent).toContain('2 sales are still open');
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    await user.click(within(flow).getByRole('button', { name: 'Yes, switch to STAGING' }));
    await waitFor(() =>
      expect(bridge.updateSettings).toHaveBeenCalledWith({ patch: { environment: 'staging' } }),
    );
  });

  it('shows main refusal next to the field it names', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.saveConnection.mockImplementation(() =>
      fail(
        'INVALID_SETTINGS',
        'Listener port: Port 4555 cannot be used for the payment listener',
        'callbacks.listenerPort',
      ),
    );
    renderApp(bridge, '#/settings/connect');
    const flow = await findSection('Connect your provider');
    await user.click(within(flow).getByRole('button', { name: 'Save STAGING connection' }));
    const port = fieldIn(flow, 'Listener port');
    await waitFor(() => expect(port.getAttribute('aria-invalid')).toBe('true'));
    expect(within(flow).getByRole('alert').textContent).toContain('Port 4555 cannot be used');
  });
});

describe('Settings: Connect your provider proves the path a sale takes', () => {
  it('shows a blank Merchant ID refused at the Merchant ID field, in shop words', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.saveConnection.mockImplementation(() =>
      fail(
        'INVALID_SETTINGS',
        'Merchant ID (staging): Enter the Merchant ID your provider gave you',
        'profiles.staging.merchantId',
      ),
    );
    renderApp(bridge, '#/settings/connect');
    const flow = await findSection('Connect your provider');
    await user.click(within(flow).getByRole('button', { name: 'Save STAGING connection' }));
    const merchantId = fieldIn(flow, 'Merchant ID');
    await waitFor(() => expect(merchantId.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(merchantId)).toContain('Enter the Merchant ID your provider gave you');
    expect(fieldIn(flow, 'Base URL').getAttribute('aria-invalid')).toBe('false');
    // Nothing to check until the Save went through.
    expect(
      within(flow).getByRole<HTMLButtonElement>('button', { name: 'Check everything' }).disabled,
    ).toBe(true);
  });

  it('shows a missing secret key refused at the Secret key field', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.saveConnection.mockImplementation(() =>
      fail(
        'INVALID_SETTINGS',
        'Secret key: Enter the secret key your provider gave you',
        'secrets.secretKey',
      ),
    );
    renderApp(bridge, '#/settings/connect');
    const flow = await findSection('Connect your provider');
    await user.click(within(flow).getByRole('button', { name: 'Save STAGING connection' }));
    const key = fieldIn(flow, 'Secret key');
    await waitFor(() => expect(key.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(key)).toContain('Enter the secret key your provider gave you');
  });

  it('offers LIVE a trial account as a choice, sends it, and says when it was not made', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.saveConnection.mockImplementation(async (input) =>
      ok({
        environment: input.environment,
        settings: settingsView(),
        secrets: secretsView(),
        listenerMoved: false,
        openSales: 0,
      }),
    );
    const notMade: GoLiveCheckView = {
      ...PASSED,
      environment: 'production',
      lines: [
        ...PASSED.lines,
        {
          check: 'trial',
          ok: true,
          notRun: true,
          title: "A sale's account",
          message: 'Not tried: no trial account was made.',
          advice: 'Tick it and check again.',
        },
      ],
    };
    bridge.checkEverything.mockImplementation(() => ok(notMade));
    renderApp(bridge, '#/settings/connect');
    const flow = await findSection('Connect your provider');
    // STAGING always makes one: no choice there.
    expect(within(flow).queryByRole('checkbox', { name: /Make a trial account too/ })).toBeNull();
    await user.click(within(flow).getByRole('radio', { name: /LIVE/ }));
    const choice = within(flow).getByRole('checkbox', {
      name: /^Make a trial account too \(a real account nobody pays into\)/,
    });
    expect((choice as HTMLInputElement).checked).toBe(false);
    await user.click(within(flow).getByRole('button', { name: 'Save LIVE connection' }));
    await user.click(await within(flow).findByRole('button', { name: 'Check everything' }));
    await waitFor(() =>
      expect(bridge.checkEverything).toHaveBeenLastCalledWith({
        environment: 'production',
        trialAccount: false,
      }),
    );
    const results = await within(flow).findByRole('list', { name: 'Check results' });
    const lines = within(results)
      .getAllByRole('listitem')
      .map((item) => item.textContent ?? '');
    expect(lines[3]).toBe(
      "– A sale's account Not tried: no trial account was made. What to do: Tick it and check again.",
    );
    expect(flow.textContent).toContain("a sale's account was not tried");
    expect(flow.textContent).not.toContain('Everything checked.');

    await user.click(choice);
    await user.click(within(flow).getByRole('button', { name: 'Check everything' }));
    await waitFor(() =>
      expect(bridge.checkEverything).toHaveBeenLastCalledWith({
        environment: 'production',
        trialAccount: true,
      }),
    );
  });

  it('shows the trial account made on STAGING as a ✓ line, and a failed one as ✗', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.saveConnection.mockImplementation(async (input) =>
      ok({
        environment: input.environment,
        settings: settingsView(),
        secrets: secretsView(),
        listenerMoved: false,
        openSales: 0,
      }),
    );
    const made: GoLiveCheckView = {
      ...PASSED,
      lines: [
        ...PASSED.lines,
        {
          check: 'trial',
          ok: true,
          title: "A sale's account",
          message: 'Trial account made: 9912345678 at Sandbox Bank.',
          advice: null,
        },
      ],
    };
    bridge.checkEverything.mockImplementationOnce(() => ok(made));
    renderApp(bridge, '#/settings/connect');
    const flow = await findSection('Connect your provider');
    await user.click(within(flow).getByRole('button', { name: 'Save STAGING connection' }));
    await user.click(await within(flow).findByRole('button', { name: 'Check everything' }));
    expect(bridge.checkEverything).toHaveBeenLastCalledWith({ environment: 'staging' });
    const results = await within(flow).findByRole('list', { name: 'Check results' });
    expect(within(results).getAllByRole('listitem')[3]?.textContent).toBe(
      "✓ A sale's account Trial account made: 9912345678 at Sandbox Bank.",
    );
    expect(flow.textContent).toContain('Everything checked. Switch when you are ready');

    bridge.checkEverything.mockImplementationOnce(() =>
      ok({
        ...PASSED,
        passed: false,
        lines: [
          ...PASSED.lines,
          {
            check: 'trial',
            ok: false,
            title: "A sale's account",
            message: 'The trial account was not made. The Merchant ID is missing or wrong.',
            advice: 'Fix it above, save, then check again.',
          },
        ],
      }),
    );
    await user.click(within(flow).getByRole('button', { name: 'Check everything' }));
    await waitFor(() =>
      expect(within(results).getAllByRole('listitem')[3]?.textContent?.slice(0, 2)).toBe('✗ '),
    );
    expect(flow.textContent).toContain('Check everything first');
  });
});

describe('Settings: switching environment with open sales', () => {
  it('asks first on the Environment page too, naming how many sales are open', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge(settingsView({ openSales: 2 }));
    renderApp(bridge, '#/settings/environment');
    const section = await findSection('Environment');
    await user.click(within(section).getByRole('radio', { name: /STAGING/ }));
    await user.click(screen.getByRole('button', { name: 'Save and switch to STAGING' }));
    const question = screen.getByRole('group', { name: 'Switch to STAGING?' });
    expect(question.textContent).toContain('2 sales are still open on SANDBOX');
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    await user.click(within(question).getByRole('button', { name: 'Yes, switch to STAGING' }));
    await waitFor(() =>
      expect(bridge.updateSettings).toHaveBeenCalledWith({ patch: { environment: 'staging' } }),
    );
  });
});

describe('Settings: unsaved edits', () => {
  it('asks before another page replaces unsaved edits, and stays when told to', async () => {
    const user = userEvent.setup();
    renderApp(settingsBridge(), '#/settings/shop');
    const shop = await findSection('Shop and till');
    await user.type(fieldIn(shop, 'Shop name'), ' Annex');
    await user.click(screen.getByRole('tab', { name: 'Callbacks' }));
    const question = screen.getByRole('alertdialog');
    expect(question.textContent).toContain('not saved');
    await user.click(within(question).getByRole('button', { name: 'Stay and save' }));
    expect(fieldIn(screen.getByRole('region', { name: 'Shop and till' }), 'Shop name').value).toBe(
      'Mama Put Stores Annex',
    );
    await user.click(screen.getByRole('tab', { name: 'Callbacks' }));
    await user.click(screen.getByRole('button', { name: 'Leave without saving' }));
    expect(await findSection('Payment callbacks')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Shop and till' })).toBeNull();
  });

  it('leaves at once when nothing is unsaved', async () => {
    const user = userEvent.setup();
    renderApp(settingsBridge(), '#/settings/shop');
    await findSection('Shop and till');
    await user.click(screen.getByRole('tab', { name: 'Callbacks' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('region', { name: 'Payment callbacks' })).toBeTruthy();
  });
});

describe('Settings: keys are entered for an address', () => {
  const boundKeys = () =>
    secretsView({
      secretKey: {
        set: true,
        last4: '4321',
        problem: null,
        boundOrigin: 'https://staging.provider.example',
      },
      accessToken: {
        set: true,
        last4: '9876',
        problem: null,
        boundOrigin: 'https://payouts.staging.provider.example',
      },
    });

  it('says at the Base URL that saved keys will not go to a new origin, and that the key needs entering again', async () => {
    const user = userEvent.setup();
    renderApp(settingsBridge(undefined, boundKeys), '#/settings/connect');
    const flow = await findSection('Connect your provider');
    const base = fieldIn(flow, 'Base URL');
    await waitFor(() => expect(descriptionOf(fieldIn(flow, 'Secret key'))).toContain('4321'));
    expect(within(flow).queryByTestId('keys-elsewhere')).toBeNull();

    // A new path at the same origin: the keys still go there.
    await user.clear(base);
    await user.type(base, 'https://staging.provider.example/v2');
    expect(within(flow).queryByTestId('keys-elsewhere')).toBeNull();

    await user.clear(base);
    await user.type(base, 'https://collector.example');
    expect(descriptionOf(base)).toContain(
      'Saved keys were entered for https://staging.provider.example; enter them again to use this address',
    );
    expect(descriptionOf(fieldIn(flow, 'Secret key'))).toBe(
      'Entered for https://staging.provider.example: enter it again to use it at this address',
    );
    // The payout address did not move: its token still goes there.
    expect(descriptionOf(fieldIn(flow, 'Payout base URL'))).not.toContain('Saved keys');
    expect(descriptionOf(fieldIn(flow, 'Payout access token'))).toContain('ends in 9876');
  });

  it('shows it at once when the saved address already points elsewhere', async () => {
    const moved = settingsView({
      settings: settings({
        profiles: {
          ...settings().profiles,
          staging: {
            ...settings().profiles.staging,
            payoutBaseUrl: 'https://collector.example/payout',
          },
        },
      }),
    });
    renderApp(settingsBridge(moved, boundKeys), '#/settings/connect');
    const flow = await findSection('Connect your provider');
    await waitFor(() =>
      expect(descriptionOf(fieldIn(flow, 'Payout base URL'))).toContain(
        'Saved keys were entered for https://payouts.staging.provider.example; enter them again to use this address',
      ),
    );
  });
});
