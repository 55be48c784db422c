import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { BridgeResult } from '#shared/bridge/contract';
import { App } from './app';
import { createHttpBridge, memorySlot } from './bridge/http-bridge';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { createFakeShellHttp, readyFrame, type FakeCall } from '#support/renderer/fake-shell-http';
import { appInfo, counterSession, ok, status } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

function goTo(hash: string): void {
  act(() => {
    window.location.hash = hash;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });
}

function navNames(): string[] {
  const nav = screen.getByRole('navigation', { name: 'Screens' });
  return within(nav)
    .queryAllByRole('link')
    .map((link) => link.textContent ?? '');
}

/** A bridge as a paired counter sees main: a cashier with a counter, and its own till id. */
function counterBridge(role: 'owner' | 'cashier' = 'cashier') {
  const bridge = createFakeBridge();
  bridge.getSession.mockImplementation(() => ok(counterSession({ role })));
  bridge.getStatus.mockImplementation(() => ok(status({ tillId: 'till-f3k9' })));
  return bridge;
}

describe('counter mode (a screen paired to a hub)', () => {
  it('offers Sale and Activity only (the display has its own address), says which counter, shows its till id', async () => {
    // Even were main to say owner: the owner's screens are at the hub.
    const bridge = counterBridge('owner');
    renderApp(bridge, '#/sale');
    expect((await screen.findByTestId('session-who')).textContent).toBe('Counter: Front counter');
    expect(navNames()).toEqual(['Sale', 'Activity']);
    expect((await screen.findByTestId('till-id')).textContent).toBe('till-f3k9');
    // Its pairing is its sign-in: no sign-in screen, no owner unlock or lock.
    expect(screen.queryByRole('heading', { name: 'Who is at this till?' })).toBeNull();
    expect(await screen.findByRole('textbox', { name: /Amount/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Owner unlock' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Lock' })).toBeNull();
  });

  it('shows "This screen is at the hub" for Settings and the other owner screens', async () => {
    const bridge = counterBridge();
    renderApp(bridge, '#/settings');
    expect(await screen.findByRole('heading', { name: 'This screen is at the hub' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Settings', level: 2 })).toBeNull();
    expect(screen.queryByLabelText('Owner PIN')).toBeNull();
    goTo('#/counters');
    expect(screen.getByTestId('at-the-hub').textContent).toContain('Counters');
    goTo('#/balance');
    expect(screen.getByTestId('at-the-hub').textContent).toContain('The balance');
    expect(bridge.getSettings).not.toHaveBeenCalled();
    expect(bridge.getHub).not.toHaveBeenCalled();
    expect(bridge.getBalance).not.toHaveBeenCalled();
  });
});

describe('a counter the owner removed', () => {
  function answerAsCounter(call: FakeCall): { body: BridgeResult<unknown> } {
    const values: Readonly<Record<string, unknown>> = {
      getAppInfo: appInfo(),
      getStatus: status({ tillId: 'till-f3k9' }),
      getSession: counterSession(),
      getPrintSetup: { paperWidthMm: 80, printerName: null, silent: false },
    };
    return { body: { ok: true, value: values[call.name] ?? {} } };
  }

  function openCounter() {
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '#/sale');
    const shell = createFakeShellHttp();
    shell.answerCalls(answerAsCounter);
    const bridge = createHttpBridge('counter-token', shell.fetch, memorySlot('s1'));
    render(<App bridge={bridge} />);
    return shell;
  }

  it('says so when a call is answered COUNTER_REVOKED, and stops asking', async () => {
    const shell = openCounter();
    await screen.findByRole('textbox', { name: /Amount/ });
    shell.setMode('revoked');
    // The next call (here: the session read again when the window gets focus) is refused.
    act(() => void window.dispatchEvent(new Event('focus')));
    const removed = await screen.findByTestId('counter-removed');
    expect(removed.textContent).toContain('This counter was removed by the owner');
    expect(removed.textContent).toContain('new pairing link');
    expect(screen.queryByRole('textbox', { name: /Amount/ })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Screens' })).toBeNull();
    const tries = shell.requests.length;
    act(() => void window.dispatchEvent(new Event('focus')));
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(shell.requests.length).toBe(tries);
  });

  it('says so when its event stream is refused COUNTER_REVOKED', async () => {
    const shell = openCounter();
    await vi.waitFor(() => expect(shell.streams.length).toBeGreaterThan(0));
    act(() => shell.latest().push(readyFrame('b.0')));
    await screen.findByRole('textbox', { name: /Amount/ });
    // The owner revokes: main ends the stream at once and refuses it when it comes back.
    shell.setMode('revoked');
    act(() => shell.latest().end());
    expect(
      (await screen.findByTestId('counter-removed', {}, { timeout: 3000 })).textContent,
    ).toContain('This counter was removed by the owner');
    const streams = shell.streams.length;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(shell.streams.length).toBe(streams);
  });
});
