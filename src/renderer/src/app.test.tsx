import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AppInfo, BridgeResult, WindowApi } from '../../shared/bridge/contract';
import { App } from './app';

function fakeBridge(result: BridgeResult<AppInfo>): WindowApi {
  return {
    getAppInfo: vi.fn(() => Promise.resolve(result)),
    subscribe: vi.fn(() => () => undefined),
  };
}

describe('App shell', () => {
  it('shows the environment badge and version from the bridge', async () => {
    const bridge = fakeBridge({
      ok: true,
      value: {
        name: 'Transfer Till',
        version: '9.9.9',
        shell: 'browser',
        environment: 'production',
      },
    });
    render(<App bridge={bridge} />);
    expect(await screen.findByTestId('environment-badge')).toHaveProperty('textContent', 'LIVE');
    expect(screen.getByTestId('app-version').textContent).toContain('9.9.9');
    expect(bridge.getAppInfo).toHaveBeenCalledWith({});
  });

  it('labels the sandbox plainly', async () => {
    render(
      <App
        bridge={fakeBridge({
          ok: true,
          value: {
            name: 'Transfer Till',
            version: '1.0.0',
            shell: 'electron',
            environment: 'sandbox',
          },
        })}
      />,
    );
    expect((await screen.findByLabelText('Environment: SANDBOX')).textContent).toBe('SANDBOX');
  });

  it('shows a bridge error in words', async () => {
    render(
      <App
        bridge={fakeBridge({
          ok: false,
          error: { code: 'BRIDGE_OFFLINE', message: 'The till service is not reachable.' },
        })}
      />,
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The till service is not reachable.',
    );
  });

  it('says how to connect when there is no bridge at all', () => {
    render(<App bridge={null} />);
    expect(screen.getByRole('alert').textContent).toContain('npm run web');
  });
});
