import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from './app';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { appInfo, callbackHealth, fail, notReaching, ok, status } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

describe('App shell', () => {
  it('shows the environment badge and version from the bridge', async () => {
    const bridge = createFakeBridge();
    bridge.getAppInfo.mockImplementation(() =>
      ok(appInfo({ version: '9.9.9', environment: 'production' })),
    );
    renderApp(bridge);
    const badge = await screen.findByTestId('environment-badge');
    expect(badge.textContent).toBe('LIVE');
    expect(badge.getAttribute('aria-label')).toBe('Environment: LIVE');
    expect(badge.className).toContain('env-production');
    expect(screen.getByTestId('app-version').textContent).toContain('9.9.9');
    expect(screen.getByTestId('app-version').textContent).toContain('browser shell');
    expect(bridge.getAppInfo).toHaveBeenCalledWith({});
  });

  it('labels the sandbox and staging plainly', async () => {
    const bridge = createFakeBridge();
    renderApp(bridge);
    expect((await screen.findByLabelText('Environment: SANDBOX')).textContent).toBe('SANDBOX');
  });

  it('has a single level-one heading', async () => {
    renderApp(createFakeBridge());
    await screen.findByTestId('environment-badge');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([
      'Transfer Till',
    ]);
  });

  it('shows a bridge error in cashier words', async () => {
    const bridge = createFakeBridge();
    bridge.getAppInfo.mockImplementation(() =>
      fail('BRIDGE_OFFLINE', 'The till service is not reachable.'),
    );
    renderApp(bridge);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The till service is not running',
    );
  });

  it('says how to connect when there is no bridge at all', () => {
    render(<App bridge={null} />);
    expect(screen.getByRole('alert').textContent).toContain('npm run web');
  });

  it('shows the tunnel while it connects, then what the health monitor proved', async () => {
    const bridge = createFakeBridge();
    bridge.getStatus.mockImplementation(() =>
      ok(
        status({
          callback: { mode: 'tunnel', live: false, tunnel: { state: 'connecting' } },
          callbackHealth: callbackHealth({ state: 'off', lastProof: null, lastSelfTest: null }),
        }),
      ),
    );
    renderApp(bridge);
    const callback = await screen.findByTestId('callback-status');
    expect(callback.textContent).toBe('Payments may show late');
    bridge.emit({ type: 'tunnel', payload: { state: 'online', url: 'https://x.ngrok.app' } });
    bridge.emit({
      type: 'callback-health',
      payload: callbackHealth({ state: 'unproven', selfTestRunning: true, lastProof: null }),
    });
    // A route that merely exists is not "live".
    expect(callback.textContent).toBe('Checking payment news…');
    bridge.emit({ type: 'callback-health', payload: callbackHealth() });
    expect(callback.textContent).toBe('Payments show within seconds');
    expect(callback.className).toContain('tone-good');
    bridge.emit({
      type: 'tunnel',
      payload: {
        state: 'error',
        code: 'AUTH',
        message: 'ngrok refused the token',
        retryInMs: 5000,
      },
    });
    expect(callback.textContent).toBe('Payments may show late');
    expect(callback.className).toContain('tone-bad');
    bridge.emit({ type: 'tunnel', payload: { state: 'off' } });
    bridge.emit({ type: 'callback-health', payload: callbackHealth({ state: 'off' }) });
    expect(callback.textContent).toBe('Payments may show late');
    expect(callback.className).toContain('tone-warn');
  });

  it('says "Callbacks live" only when proven: unproven is not live', async () => {
    const bridge = createFakeBridge();
    bridge.getStatus.mockImplementation(() =>
      ok(status({ callbackHealth: callbackHealth({ state: 'unproven', lastProof: null }) })),
    );
    renderApp(bridge);
    const callback = await screen.findByTestId('callback-status');
    expect(callback.textContent).toBe('Payments may show late');
    expect(callback.className).toContain('tone-warn');
  });

  it('stops calling callbacks live when the tunnel they need drops', async () => {
    const bridge = createFakeBridge();
    bridge.getStatus.mockImplementation(() =>
      ok(
        status({
          callback: { mode: 'tunnel', live: true, tunnel: { state: 'online', url: 'https://x' } },
        }),
      ),
    );
    renderApp(bridge);
    const callback = await screen.findByTestId('callback-status');
    expect(callback.textContent).toBe('Payments show within seconds');
    bridge.emit({ type: 'tunnel', payload: { state: 'connecting' } });
    expect(callback.textContent).toBe('Payments may show late');
  });

  it('keeps a local sandbox route live whatever the tunnel does', async () => {
    const bridge = createFakeBridge();
    renderApp(bridge);
    const callback = await screen.findByTestId('callback-status');
    expect(callback.textContent).toBe('Payments show within seconds');
    bridge.emit({ type: 'tunnel', payload: { state: 'off' } });
    expect(callback.textContent).toBe('Payments show within seconds');
  });

  it('shows a banner with the cause, what to do and the check cadence while callbacks do not reach the till', async () => {
    const bridge = createFakeBridge();
    renderApp(bridge);
    const callback = await screen.findByTestId('callback-status');
    expect(screen.queryByTestId('callback-health-banner')).toBeNull();

    bridge.emit({ type: 'callback-health', payload: notReaching() });
    expect(callback.textContent).toBe('Payments may show late');
    expect(callback.className).toContain('tone-bad');
    const banner = screen.getByTestId('callback-health-banner');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toContain('Payment news is not reaching this till.');
    // The cause and what to do are for whoever sets the till up: one press away, under Details.
    expect(within(banner).getByText('Details').closest('details')?.open).toBe(false);
    expect(banner.textContent).toContain(
      "Likely cause: The tunnel is up, but the provider's callback for sale #7 never came",
    );
    expect(banner.textContent).toContain("What to do: Check that ngrok's allow list");
    expect(banner.textContent).toContain('checks every open sale with the bank every 10 s');

    // Callbacks seen again: the banner goes.
    bridge.emit({
      type: 'callback-health',
      payload: callbackHealth({ lastProof: { at: 1, kind: 'callback' } }),
    });
    expect(screen.queryByTestId('callback-health-banner')).toBeNull();
    expect(callback.textContent).toBe('Payments show within seconds');
  });

  it('shows the banner on every screen, read from the status at start', async () => {
    const bridge = createFakeBridge();
    bridge.getStatus.mockImplementation(() => ok(status({ callbackHealth: notReaching() })));
    renderApp(bridge, '#/report');
    expect((await screen.findByTestId('callback-health-banner')).textContent).toContain('sale #7');
  });

  it('counts open alerts, links them to Activity and re-reads the count on an alert event', async () => {
    const bridge = createFakeBridge();
    bridge.getStatus.mockImplementation(() => ok(status({ openAlerts: 2 })));
    renderApp(bridge);
    const link = await screen.findByRole('link', { name: '2 open alerts' });
    expect(link.getAttribute('href')).toBe('#/activity');
    bridge.getStatus.mockImplementation(() => ok(status({ openAlerts: 3 })));
    bridge.emit({
      type: 'alert',
      payload: {
        id: 9,
        createdAt: 0,
        level: 'warning',
        kind: 'paid_late',
        saleId: 1,
        message: 'late',
        sessionId: null,
        acknowledgedAt: null,
        closedBy: null,
        action: 'settle-on-sale',
      },
    });
    expect(await screen.findByRole('link', { name: '3 open alerts' })).toBeTruthy();
  });

  it('navigates between screens by hash and marks the current one', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    renderApp(bridge, '#/sale');
    const nav = screen.getByRole('navigation', { name: 'Screens' });
    expect(within(nav).getByRole('link', { name: 'Sale' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await user.click(within(nav).getByRole('link', { name: 'Settings' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Settings' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 3, name: 'Environment' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe(
      'page',
    );
    act(() => {
      window.location.hash = '#/nowhere';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(await screen.findByRole('textbox', { name: /Amount/ })).toBeTruthy();
  });

  it("follows the desktop menu's navigate events", async () => {
    const bridge = createFakeBridge();
    renderApp(bridge, '#/sale');
    await screen.findByRole('textbox', { name: /Amount/ });
    act(() => {
      bridge.emit({ type: 'navigate', payload: { route: 'balance' } });
    });
    expect(window.location.hash).toBe('#/balance');
    act(() => {
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Payout balance' })).toBeTruthy();
  });

  it('shows the customer display without the cashier header', async () => {
    renderApp(createFakeBridge(), '#/display');
    expect(await screen.findByText('Welcome')).toBeTruthy();
    expect(await screen.findByText('Mama Put Stores')).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
