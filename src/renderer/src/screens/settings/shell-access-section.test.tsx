import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BridgeProvider } from '../../bridge-context';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import { appInfo, fail, ok } from '#support/renderer/fixtures';
import { ShellAccessSection } from './shell-access-section';

function renderSection(bridge: FakeBridge) {
  return render(
    <BridgeProvider bridge={bridge}>
      <ShellAccessSection />
    </BridgeProvider>,
  );
}

describe('Settings: browser access', () => {
  it('rotates the token and shows the new addresses once', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    const url = 'http://127.0.0.1:5173/#token=NEWtoken_0123456789abc';
    bridge.rotateShellToken.mockImplementation(() =>
      ok({ url, displayUrl: 'http://127.0.0.1:5173/#/display&token=NEWtoken_0123456789abc' }),
    );
    renderSection(bridge);
    await user.click(await screen.findByRole('button', { name: 'Rotate access token' }));
    expect(bridge.rotateShellToken).toHaveBeenCalledWith({});
    expect(screen.getByTestId('shell-url').textContent).toBe(url);
    expect(screen.getByTestId('shell-display-url').textContent).toContain('#/display&token=');
    expect(screen.getByRole('status').textContent).toContain('shown here once');
  });

  it('says why when main refuses', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.rotateShellToken.mockImplementation(() =>
      fail('FORBIDDEN', 'Only the owner can do this.'),
    );
    renderSection(bridge);
    await user.click(await screen.findByRole('button', { name: 'Rotate access token' }));
    expect(screen.getByRole('alert').textContent).toContain('Only the owner');
    expect(screen.queryByTestId('shell-url')).toBeNull();
  });

  it('is not offered in the desktop app (it has no token)', async () => {
    const bridge = createFakeBridge();
    bridge.getAppInfo.mockImplementation(() => ok(appInfo({ shell: 'electron' })));
    const { container } = renderSection(bridge);
    await expect.poll(() => bridge.getAppInfo.mock.calls.length).toBe(1);
    expect(container.textContent).toBe('');
  });
});
