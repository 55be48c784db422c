import { render, type RenderResult } from '@testing-library/react';
import { App } from '../../../src/renderer/src/app';
import type { FakeBridge } from './fake-bridge';

/** Renders the whole app on a route, as the window would open it. */
export function renderApp(bridge: FakeBridge, hash = '#/sale'): RenderResult {
  window.history.replaceState(null, '', hash);
  return render(<App bridge={bridge} />);
}
