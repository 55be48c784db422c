import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { notReaching, ok, status } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

const UNREACHABLE = "Provider can't be reached: payments will show when it is back";

describe("the header while the provider can't be reached", () => {
  it('replaces the live claim at once, in red, and gives it back when the provider is', async () => {
    const bridge = createFakeBridge();
    renderApp(bridge);
    const callback = await screen.findByTestId('callback-status');
    expect(callback.textContent).toBe('Payments show within seconds');

    bridge.emit({ type: 'provider-reach', payload: { state: 'unreachable', since: 1 } });
    expect(callback.textContent).toBe(UNREACHABLE);
    expect(callback.className).toContain('tone-bad');
    expect(document.body.textContent).not.toMatch(/within seconds|Callbacks live/);

    bridge.emit({ type: 'provider-reach', payload: { state: 'reachable', since: 2 } });
    expect(callback.textContent).toBe('Payments show within seconds');
    expect(callback.className).toContain('tone-good');
  });

  it('reads it from the status at start, on every screen, over a tunnel in trouble', async () => {
    const bridge = createFakeBridge();
    bridge.getStatus.mockImplementation(() =>
      ok(
        status({
          callback: { mode: 'tunnel', live: false, tunnel: { state: 'connecting' } },
          callbackHealth: notReaching(),
          providerReach: { state: 'unreachable', since: 1 },
        }),
      ),
    );
    renderApp(bridge, '#/report');
    expect((await screen.findByTestId('callback-status')).textContent).toBe(UNREACHABLE);
    // "The till checks every open sale" does not hold while it cannot reach the provider.
    expect(screen.queryByTestId('callback-health-banner')).toBeNull();
  });

  it('an old core that says nothing of reach keeps the callback words', async () => {
    const bridge = createFakeBridge();
    bridge.getStatus.mockImplementation(() => ok(status({ providerReach: undefined })));
    renderApp(bridge);
    expect((await screen.findByTestId('callback-status')).textContent).toBe(
      'Payments show within seconds',
    );
  });
});
