import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeShellHttp, readyFrame } from '#support/renderer/fake-shell-http';
import type { BridgeEvent } from '#shared/bridge/contract';
import { COUNTER_TOKEN_KEY } from './counter-token';
import { connectionOf, connectCounter, startPage } from './index';

/** Which token the page's bridge sends (one call through a stubbed fetch). */
async function tokenSent(shell: ReturnType<typeof createFakeShellHttp>): Promise<string | null> {
  const { bridge } = startPage();
  if (!bridge) return null;
  await bridge.getAppInfo({});
  return shell.calls.at(-1)?.headers.get('authorization')?.replace('Bearer ', '') ?? null;
}

let shell: ReturnType<typeof createFakeShellHttp>;

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
  shell = createFakeShellHttp();
  vi.stubGlobal('fetch', shell.fetch);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('startPage: which token a page uses', () => {
  it("uses this device's counter token when the address and the tab hold none", async () => {
    window.localStorage.setItem(COUNTER_TOKEN_KEY, 'counter-token');
    expect(startPage().displayOnly).toBe(false);
    expect(await tokenSent(shell)).toBe('counter-token');
  });

  it("prefers the address's token, then the tab's, to the counter token", async () => {
    window.localStorage.setItem(COUNTER_TOKEN_KEY, 'counter-token');
    window.sessionStorage.setItem('till.token', 'tab-token');
    expect(await tokenSent(shell)).toBe('tab-token');
    window.history.replaceState(null, '', '/#token=address-token');
    expect(await tokenSent(shell)).toBe('address-token');
  });

  it('is display-only with a display token, never with a counter token', () => {
    window.history.replaceState(null, '', '/#/display&display=display-token');
    expect(startPage().displayOnly).toBe(true);
    window.sessionStorage.clear();
    window.localStorage.setItem(COUNTER_TOKEN_KEY, 'counter-token');
    expect(startPage().displayOnly).toBe(false);
  });

  it('has no bridge without any token', () => {
    expect(startPage().bridge).toBeNull();
  });
});

describe("startPage: the desktop customer display's preload", () => {
  afterEach(() => {
    Reflect.deleteProperty(window, 'tillDisplay');
  });

  it('is display-only: its events, every call answered DISPLAY_ONLY without reaching main', async () => {
    const listeners: ((event: BridgeEvent) => void)[] = [];
    const subscribe = vi.fn((listener: (event: BridgeEvent) => void) => {
      listeners.push(listener);
      return () => undefined;
    });
    Object.defineProperty(window, 'tillDisplay', { value: { subscribe }, configurable: true });
    const start = startPage();
    expect(start.displayOnly).toBe(true);
    const heard: BridgeEvent[] = [];
    start.bridge?.subscribe((event) => heard.push(event));
    const state: BridgeEvent = {
      type: 'display-state',
      payload: { shopName: 'Shop', tillId: 'T1', sale: null },
    };
    listeners.forEach((listener) => listener(state));
    expect(heard).toEqual([state]);
    expect(await start.bridge?.getActivity({})).toMatchObject({
      ok: false,
      error: { code: 'DISPLAY_ONLY' },
    });
    expect(shell.calls).toEqual([]);
  });
});

describe("a counter's token on this device", () => {
  it('is kept by a pairing, replacing what the tab held before', () => {
    window.sessionStorage.setItem('till.token', 'old-token');
    window.sessionStorage.setItem('till.session', 'old-session');
    window.sessionStorage.setItem('till.display-only', '1');
    connectCounter('new-counter-token');
    expect(window.localStorage.getItem(COUNTER_TOKEN_KEY)).toBe('new-counter-token');
    expect(window.sessionStorage.length).toBe(0);
  });

  it('is forgotten once main says the counter was removed (on a call)', async () => {
    window.localStorage.setItem(COUNTER_TOKEN_KEY, 'counter-token');
    const { bridge } = startPage();
    shell.setMode('revoked');
    await bridge?.getStatus({});
    expect(window.localStorage.getItem(COUNTER_TOKEN_KEY)).toBeNull();
  });

  it('is forgotten once main says so on the event stream', async () => {
    vi.useFakeTimers();
    window.localStorage.setItem(COUNTER_TOKEN_KEY, 'counter-token');
    const { bridge } = startPage();
    if (!bridge) throw new Error('a counter token gives a bridge');
    bridge.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    shell.latest().push(readyFrame('b.0'));
    await vi.advanceTimersByTimeAsync(0);
    // The owner revokes: main ends the stream, and refuses it when it comes back.
    shell.setMode('revoked');
    shell.latest().end();
    await vi.advanceTimersByTimeAsync(500);
    expect(connectionOf(bridge)?.view()).toMatchObject({
      state: 'refused',
      refusedWith: 'COUNTER_REVOKED',
    });
    expect(window.localStorage.getItem(COUNTER_TOKEN_KEY)).toBeNull();
  });

  it('is kept when a refusal is for another reason', async () => {
    window.localStorage.setItem(COUNTER_TOKEN_KEY, 'counter-token');
    const { bridge } = startPage();
    shell.setMode('refusing');
    await bridge?.getStatus({});
    expect(window.localStorage.getItem(COUNTER_TOKEN_KEY)).toBe('counter-token');
  });
});
