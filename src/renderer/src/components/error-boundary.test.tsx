import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RENDERER_ERROR_LIMITS } from '#shared/bridge/wire';
import type { ActivityView } from '#shared/bridge/contract';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { ok } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { ErrorBoundary, rendererErrorReport, type RendererErrorReport } from './error-boundary';

/** Throws while `broken.now` is true: a screen fed bad data. */
const broken = { now: true };
function Fragile() {
  const [mounts] = useState(() => Math.random());
  if (broken.now) throw new TypeError("Cannot read properties of null (reading 'length')");
  return <p data-mount={mounts}>All good</p>;
}

beforeEach(() => {
  broken.now = true;
  // React logs every caught render error; the test checks the boundary, not the console.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('ErrorBoundary', () => {
  it('shows the problem and a way back instead of a blank screen, and reports it', () => {
    const reports: RendererErrorReport[] = [];
    render(
      <ErrorBoundary screen="activity" onError={(report) => reports.push(report)}>
        <Fragile />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'This screen hit a problem' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload this screen' })).toBeTruthy();
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      screen: 'activity',
      message: "TypeError: Cannot read properties of null (reading 'length')",
    });
    expect(reports[0]?.componentStack).toContain('Fragile');
  });

  it('remounts only the screen on "Reload this screen"', async () => {
    const user = userEvent.setup();
    render(
      <>
        <p>Header stays</p>
        <ErrorBoundary screen="sale" onError={() => undefined}>
          <Fragile />
        </ErrorBoundary>
      </>,
    );
    expect(screen.getByText('Header stays')).toBeTruthy();
    broken.now = false;
    await user.click(screen.getByRole('button', { name: 'Reload this screen' }));
    expect(screen.getByText('All good')).toBeTruthy();
    expect(screen.queryByText('This screen hit a problem')).toBeNull();
  });

  it('survives a report that itself fails', () => {
    render(
      <ErrorBoundary
        screen="sale"
        onError={() => {
          throw new Error('the bridge is gone');
        }}
      >
        <Fragile />
      </ErrorBoundary>,
    );
    expect(screen.getByText('This screen hit a problem')).toBeTruthy();
  });
});

describe('rendererErrorReport', () => {
  it('cuts every part to what main accepts', () => {
    const error = new Error('x'.repeat(5000));
    error.stack = 'y'.repeat(9000);
    const report = rendererErrorReport('s'.repeat(100), error, 'z'.repeat(9000));
    expect(report.screen.length).toBe(RENDERER_ERROR_LIMITS.screen);
    expect(report.message.length).toBe(RENDERER_ERROR_LIMITS.message);
    expect(report.stack?.length).toBe(RENDERER_ERROR_LIMITS.stack);
    expect(report.componentStack?.length).toBe(RENDERER_ERROR_LIMITS.componentStack);
    expect(rendererErrorReport('sale', 'a string')).toEqual({
      screen: 'sale',
      message: 'Thrown: a string',
    });
  });
});

describe('the app guards each screen', () => {
  it('bad data from main breaks the Activity screen only: the boundary shows, main gets the report', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    const bad = { sales: null, inflows: [], alerts: [], standingAccounts: [] };
    bridge.getActivity.mockImplementation(() => ok(bad as unknown as ActivityView));
    renderApp(bridge, '#/activity');
    expect(await screen.findByText('This screen hit a problem')).toBeTruthy();
    // The rest of the till is there: header, navigation, footer.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Transfer Till');
    expect(screen.getByTestId('environment-badge')).toBeTruthy();
    const [report] = bridge.reportRendererError.mock.calls[0] ?? [];
    expect(report?.screen).toBe('activity');
    expect(report?.message).toContain('TypeError');
    expect(report?.componentStack).toContain('ActivityScreen');

    // Main answers properly again: "Reload this screen" shows the screen.
    bridge.getActivity.mockImplementation(() =>
      ok({ sales: [], inflows: [], alerts: [], standingAccounts: [] }),
    );
    await user.click(screen.getByRole('button', { name: 'Reload this screen' }));
    expect(await screen.findByText('No sales yet today.')).toBeTruthy();
    expect(screen.queryByText('This screen hit a problem')).toBeNull();
  });

  it('starts afresh on another screen', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    const bad = { sales: null, inflows: [], alerts: [], standingAccounts: [] };
    bridge.getActivity.mockImplementation(() => ok(bad as unknown as ActivityView));
    renderApp(bridge, '#/activity');
    await screen.findByText('This screen hit a problem');
    await user.click(screen.getByRole('link', { name: /^Sale$/ }));
    expect(await screen.findByRole('textbox', { name: /Amount/ })).toBeTruthy();
    expect(screen.queryByText('This screen hit a problem')).toBeNull();
  });
});
