import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { BridgeResult } from '#shared/bridge/contract';
import type { CallbackHealthView } from '#shared/views';
import { callbackHealth, fail, ok, selfTest, status, T0 } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { findSection, settingsBridge } from '#support/renderer/settings-bridge';

const REFUSED = callbackHealth({
  state: 'not_reaching',
  since: T0 + 60_000,
  cause:
    'The callback self-test failed: https://shop-1.ngrok.app refused the basic-auth user and password this till has (401).',
  action: 'Enter the basic-auth password again in Settings.',
  checkEveryMs: 10_000,
  lastSelfTest: selfTest({
    at: T0 + 60_000,
    passed: false,
    code: 'BASIC_AUTH_REJECTED',
    detail:
      'https://shop-1.ngrok.app refused the basic-auth user and password this till has (401).',
    action: 'Enter the basic-auth password again in Settings.',
    trigger: 'user',
  }),
});

describe('Settings screen: the callback self-test', () => {
  it('shows how callbacks were last proven and the last self-test', async () => {
    renderApp(settingsBridge(), '#/settings');
    const section = await findSection('Payment callbacks');
    await waitFor(() =>
      expect(within(section).getByTestId('callback-health').textContent).toBe(
        'Callbacks live: proven by a self-test at 10:00.',
      ),
    );
    expect(within(section).getByTestId('self-test-result').textContent).toBe(
      'Self-test passed at 10:00: A test sent to http://127.0.0.1:4100 came back to this till through the local sandbox route.',
    );
  });

  it('"Test callbacks" runs the test, says it is running, then shows the failure and what to do', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    let answer: (result: BridgeResult<CallbackHealthView>) => void = () => undefined;
    bridge.testCallbacks.mockImplementation(
      () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    );
    renderApp(bridge, '#/settings');
    const section = await findSection('Payment callbacks');
    const button = within(section).getByRole('button', { name: 'Test callbacks' });
    await user.click(button);
    expect(bridge.testCallbacks).toHaveBeenCalledWith({});
    expect(within(section).getByText('Testing the callback address…')).toBeTruthy();
    expect(button).toHaveProperty('disabled', true);

    answer({ ok: true, value: REFUSED });
    const result = await within(section).findByText(/^Self-test failed/);
    expect(result.textContent).toBe(
      'Self-test failed at 10:01: https://shop-1.ngrok.app refused the basic-auth user and password this till has (401). Enter the basic-auth password again in Settings.',
    );
    expect(within(section).getByTestId('callback-health').textContent).toContain(
      'Callbacks are not reaching this till. The callback self-test failed',
    );
    expect(button).toHaveProperty('disabled', false);
    expect(within(section).queryByText('Testing the callback address…')).toBeNull();
  });

  it('shows a bridge error in words', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.testCallbacks.mockImplementation(() =>
      fail('BUSY', 'The till is switching environments. Try again in a moment.'),
    );
    renderApp(bridge, '#/settings');
    const section = await findSection('Payment callbacks');
    await user.click(within(section).getByRole('button', { name: 'Test callbacks' }));
    expect((await within(section).findByRole('alert')).textContent).toContain(
      'switching environments',
    );
  });

  it('follows the health events: a test after the tunnel reconnected, a test running elsewhere', async () => {
    const bridge = settingsBridge();
    bridge.getStatus.mockImplementation(() =>
      ok(
        status({
          callbackHealth: callbackHealth({
            state: 'unproven',
            lastProof: null,
            lastSelfTest: null,
          }),
        }),
      ),
    );
    renderApp(bridge, '#/settings');
    const section = await findSection('Payment callbacks');
    await waitFor(() =>
      expect(within(section).getByTestId('callback-health').textContent).toBe(
        'Callbacks not proven yet.',
      ),
    );
    expect(within(section).queryByTestId('self-test-result')).toBeNull();

    bridge.emit({
      type: 'callback-health',
      payload: callbackHealth({ state: 'unproven', selfTestRunning: true, lastSelfTest: null }),
    });
    expect(within(section).getByRole('button', { name: 'Test callbacks' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(within(section).getByText('Testing the callback address…')).toBeTruthy();

    bridge.emit({
      type: 'callback-health',
      payload: callbackHealth({ lastSelfTest: selfTest({ trigger: 'tunnel-online' }) }),
    });
    expect(within(section).getByTestId('callback-health').textContent).toContain('Callbacks live');
    expect(screen.getByTestId('self-test-result').textContent).toContain('Self-test passed');
  });
});
