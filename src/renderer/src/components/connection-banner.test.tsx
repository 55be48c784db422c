import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BridgeResult } from '#shared/bridge/contract';
import { App } from '../app';
import type { Connection } from '../bridge';
import type { ConnectionView } from '../bridge/event-stream';
import { createHttpBridge, memorySlot } from '../bridge/http-bridge';
import { createFakeShellHttp, readyFrame } from '#support/renderer/fake-shell-http';
import { appInfo, sale, session, status } from '#support/renderer/fixtures';
import { BACK_NOTICE_MS, ConnectionBanner } from './connection-banner';

/** A connection whose state the test sets. */
function fakeConnection() {
  const listeners = new Set<(view: ConnectionView) => void>();
  let view: ConnectionView = {
    state: 'online',
    lostAt: null,
    attempts: 0,
    retryAt: null,
    recoveries: 0,
    refusedWith: null,
    clockOffsetMs: null,
  };
  const connection: Connection = {
    view: () => view,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onReconnected: () => () => undefined,
  };
  return {
    connection,
    set(next: Partial<ConnectionView>) {
      view = { ...view, ...next };
      act(() => {
        for (const listener of listeners) listener(view);
      });
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ConnectionBanner', () => {
  it('shows nothing while connected, or without a connection (desktop)', () => {
    const { connection } = fakeConnection();
    const { container } = render(<ConnectionBanner connection={connection} />);
    expect(container.textContent).toBe('');
    const desktop = render(<ConnectionBanner connection={null} />);
    expect(desktop.container.textContent).toBe('');
  });

  it('says main is lost, then that it is back, for a few seconds', () => {
    vi.useFakeTimers();
    const fake = fakeConnection();
    render(<ConnectionBanner connection={fake.connection} />);
    fake.set({ state: 'offline', lostAt: Date.now(), attempts: 2, retryAt: Date.now() + 2000 });
    const lost = screen.getByRole('alert');
    expect(lost.textContent).toContain('Lost the connection to the till service');
    expect(lost.textContent).toContain('Reconnecting');
    fake.set({ state: 'online', lostAt: null, attempts: 0, retryAt: null, recoveries: 1 });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Connected to the till service again.');
    act(() => {
      vi.advanceTimersByTime(BACK_NOTICE_MS);
    });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('tells a page whose token was replaced where to go', () => {
    const fake = fakeConnection();
    render(<ConnectionBanner connection={fake.connection} />);
    fake.set({ state: 'refused' });
    expect(screen.getByRole('alert').textContent).toContain('Open the new address');
  });
});

describe('the app through a real HTTP bridge, when the browser shell goes away', () => {
  function json<T>(value: T): { body: BridgeResult<T> } {
    return { body: { ok: true, value } };
  }

  it('shows the banner at once, and the sale paid in the gap as paid on return', async () => {
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '#/sale');
    const shell = createFakeShellHttp();
    let current = sale({ id: 7, state: 'awaiting_payment' });
    shell.answerCalls((call) => {
      switch (call.name) {
        case 'getAppInfo':
          return json(appInfo());
        case 'getStatus':
          return json(status());
        case 'getSession':
          return json(session());
        case 'createSale':
        case 'getSale':
          return json(current);
        case 'getActivity':
          return json({ sales: [], inflows: [], alerts: [], standingAccounts: [] });
        default:
          return json({});
      }
    });
    const bridge = createHttpBridge('tok', shell.fetch, memorySlot('s1'));
    render(<App bridge={bridge} />);
    await vi.waitFor(() => expect(shell.streams.length).toBeGreaterThan(0));
    shell.latest().push(readyFrame('run1.0'));

    // A sale on screen.
    const amount = await screen.findByRole('textbox', { name: /Amount/ });
    await userEvent.setup().type(amount, '1500{Enter}');
    expect((await screen.findByTestId('sale-status')).textContent).toContain('Waiting');

    // The shell stops: the stream ends and nothing answers.
    shell.setMode('down');
    const stoppedAt = Date.now();
    act(() => shell.latest().end());
    const banner = await screen.findByTestId('connection-banner', {}, { timeout: 2000 });
    expect(Date.now() - stoppedAt).toBeLessThan(2000);
    expect(banner.getAttribute('data-state')).toBe('offline');

    // Paid while the shell was down; it restarts (a new run: nothing to replay).
    current = { ...current, state: 'paid', paidAt: Date.now(), updatedAt: Date.now() + 1 };
    shell.setMode('up');
    await vi.waitFor(() => expect(shell.latest().headers.get('last-event-id')).toBe('run1.0'), {
      timeout: 5000,
    });
    act(() => shell.latest().push(readyFrame('run2.0', true)));
    await vi.waitFor(() => expect(screen.getByTestId('sale-status').textContent).toContain('Paid'));
    expect(screen.getByTestId('connection-banner').getAttribute('data-state')).toBe('back');
    // The page re-read the sale from main (no event came for it).
    expect(shell.calls.filter((call) => call.name === 'getSale')).not.toHaveLength(0);
  });
});
