import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BridgeEvent } from '#shared/bridge/contract';
import { createFakeShellHttp, eventFrame, readyFrame } from '#support/renderer/fake-shell-http';
import {
  connectionOf,
  createHttpBridge,
  isDisplayOnly,
  memorySlot,
  storageSlot,
  takeToken,
  tokenInUrl,
} from './http-bridge';
import { buildWindowApi } from './window-api';

describe('takeToken', () => {
  it('takes the token from the fragment, keeps it for the tab and clears the address bar', () => {
    window.history.replaceState(null, '', '/display?x=1#token=abc_DEF-123');
    expect(takeToken(window.location, window.sessionStorage, window.history)).toBe('abc_DEF-123');
    expect(window.location.hash).toBe('');
    expect(window.location.search).toBe('?x=1');
    expect(takeToken(window.location, window.sessionStorage, window.history)).toBe('abc_DEF-123');
  });

  it("takes a customer display's token (display=) and marks the tab display-only", () => {
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '/#/display&display=DiSpLaY_token-0123456');
    expect(takeToken(window.location, window.sessionStorage, window.history)).toBe(
      'DiSpLaY_token-0123456',
    );
    expect(isDisplayOnly(window.sessionStorage)).toBe(true);
    expect(window.location.hash).toBe('');
    // The same tab opened with a till's token is a till again.
    window.history.replaceState(null, '', '/#token=TiLl_token');
    expect(takeToken(window.location, window.sessionStorage, window.history)).toBe('TiLl_token');
    expect(isDisplayOnly(window.sessionStorage)).toBe(false);
  });

  it("leaves a pairing link's code alone: it is no token", () => {
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '/#/pair&code=abcDEF_123-xyz0123&fp=AB12');
    expect(takeToken(window.location, window.sessionStorage, window.history)).toBeNull();
    expect(window.location.hash).toBe('#/pair&code=abcDEF_123-xyz0123&fp=AB12');
  });
});

describe('createHttpBridge', () => {
  it('posts each call with the token and returns the result object', async () => {
    const fetchImpl = vi.fn<typeof fetch>(() =>
      Promise.resolve(new Response(JSON.stringify({ ok: true, value: { version: '1' } }))),
    );
    const bridge = createHttpBridge('tok', fetchImpl, memorySlot());
    const result = await bridge.getAppInfo({});
    expect(result).toEqual({ ok: true, value: { version: '1' } });
    expect(fetchImpl).toHaveBeenCalledWith('/api/call/getAppInfo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer tok' },
      body: '{}',
    });
  });

  it('turns a network failure into a BRIDGE_OFFLINE error', async () => {
    const bridge = createHttpBridge(
      'tok',
      () => Promise.reject(new TypeError('fetch failed')),
      memorySlot(),
    );
    expect(await bridge.getAppInfo({})).toMatchObject({
      ok: false,
      error: { code: 'BRIDGE_OFFLINE' },
    });
  });

  it('keeps the session id main answers with and sends it with every later call', async () => {
    const sent: (string | null)[] = [];
    const fetchImpl = vi.fn<typeof fetch>((_url, init) => {
      sent.push(new Headers(init?.headers).get('x-till-session'));
      return Promise.resolve(
        new Response(JSON.stringify({ ok: true, value: {} }), {
          headers: { 'x-till-session': 'session-from-main' },
        }),
      );
    });
    const slot = memorySlot();
    const bridge = createHttpBridge('tok', fetchImpl, slot);
    await bridge.getSession({});
    await bridge.getAppInfo({});
    expect(sent).toEqual([null, 'session-from-main']);
    expect(slot.get()).toBe('session-from-main');
  });

  it('lets the first call open the session: calls made meanwhile wait and join it', async () => {
    const sent: (string | null)[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchImpl = vi.fn<typeof fetch>(async (_url, init) => {
      sent.push(new Headers(init?.headers).get('x-till-session'));
      if (sent.length === 1) await gate;
      return new Response(JSON.stringify({ ok: true, value: {} }), {
        headers: { 'x-till-session': 'one-session' },
      });
    });
    const bridge = createHttpBridge('tok', fetchImpl, memorySlot());
    const calls = [bridge.getAppInfo({}), bridge.getStatus({}), bridge.getSession({})];
    await Promise.resolve();
    expect(sent).toEqual([null]);
    release();
    await Promise.all(calls);
    expect(sent).toEqual([null, 'one-session', 'one-session']);
  });

  it("keeps the session in the tab's own storage, so a reload stays signed in", () => {
    window.sessionStorage.clear();
    const slot = storageSlot(window.sessionStorage);
    expect(slot.get()).toBeNull();
    slot.set('abc');
    expect(storageSlot(window.sessionStorage).get()).toBe('abc');
  });
});

describe("the bridge's connection to main", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const advance = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

  function setUp() {
    vi.useFakeTimers();
    const shell = createFakeShellHttp();
    const tokens = memorySlot('tok');
    const bridge = createHttpBridge('tok', shell.fetch, memorySlot('s1'), { tokenSlot: tokens });
    const connection = connectionOf(bridge);
    if (!connection) throw new Error('an HTTP bridge has a connection');
    const events: BridgeEvent[] = [];
    const reconnects: { resync: boolean }[] = [];
    connection.onReconnected((info) => reconnects.push(info));
    const unsubscribe = bridge.subscribe((event) => events.push(event));
    return { shell, bridge, connection, events, reconnects, tokens, unsubscribe };
  }

  it('opens the event stream with the token in a header and the session in the query', async () => {
    const { shell, connection, events } = setUp();
    await advance();
    expect(shell.latest().url).toBe('/api/events?session=s1');
    expect(shell.latest().headers.get('authorization')).toBe('Bearer tok');
    shell
      .latest()
      .push(
        readyFrame('b.0') + eventFrame('b.1', { type: 'navigate', payload: { route: 'sale' } }),
      );
    await advance();
    expect(connection.view().state).toBe('online');
    expect(events).toEqual([{ type: 'navigate', payload: { route: 'sale' } }]);
  });

  it('says main is lost as soon as a call cannot reach it', async () => {
    const { shell, bridge, connection } = setUp();
    await advance();
    shell.latest().push(readyFrame('b.0'));
    await advance();
    shell.setMode('down');
    expect(await bridge.getStatus({})).toMatchObject({
      ok: false,
      error: { code: 'BRIDGE_OFFLINE' },
    });
    expect(connection.view().state).toBe('offline');
  });

  it('tells the page to re-read after main restarted, and only then', async () => {
    const { shell, reconnects } = setUp();
    await advance();
    shell.latest().push(readyFrame('run1.3'));
    await advance();
    expect(reconnects).toEqual([]);
    shell.latest().end();
    await advance(500);
    expect(shell.latest().headers.get('last-event-id')).toBe('run1.3');
    shell.latest().push(readyFrame('run2.0', true));
    await advance();
    expect(reconnects).toEqual([{ resync: true }]);
    // A blip whose events were replayed: back, nothing to re-read.
    shell.latest().end();
    await advance(500);
    shell.latest().push(readyFrame('run2.0', false));
    await advance();
    expect(reconnects).toEqual([{ resync: true }, { resync: false }]);
  });

  it('is refused when main no longer takes its token', async () => {
    const { shell, bridge, connection } = setUp();
    await advance();
    shell.setMode('refusing');
    expect(await bridge.getAppInfo({})).toMatchObject({
      ok: false,
      error: { code: 'UNAUTHORISED' },
    });
    expect(connection.view().state).toBe('refused');
  });

  it('is refused for good when main says the counter was removed, and says so once', async () => {
    vi.useFakeTimers();
    const shell = createFakeShellHttp();
    const refusals: (string | null)[] = [];
    const bridge = createHttpBridge('tok', shell.fetch, memorySlot('s1'), {
      onRefused: (code) => refusals.push(code),
    });
    const connection = connectionOf(bridge);
    const unsubscribe = bridge.subscribe(() => undefined);
    await advance();
    shell.latest().push(readyFrame('b.0'));
    await advance();
    shell.setMode('revoked');
    expect(await bridge.getStatus({})).toMatchObject({
      ok: false,
      error: { code: 'COUNTER_REVOKED' },
    });
    expect(connection?.view()).toMatchObject({ state: 'refused', refusedWith: 'COUNTER_REVOKED' });
    await bridge.getSession({});
    expect(refusals).toEqual(['COUNTER_REVOKED']);
    // No retry loop, not even when the screens mount their listeners again.
    const tries = shell.requests.length;
    unsubscribe();
    bridge.subscribe(() => undefined);
    await advance(60_000);
    expect(shell.requests.length).toBe(tries);
    expect(connection?.view().state).toBe('refused');
  });

  it('goes on with the new token after this page rotated it', async () => {
    const { shell, bridge, connection, tokens } = setUp();
    await advance();
    shell.latest().push(readyFrame('b.0'));
    await advance();
    const url = 'http://127.0.0.1:5000/#token=NEW_token-0123456789ab';
    shell.answerCalls((call) =>
      call.name === 'rotateShellToken'
        ? { body: { ok: true, value: { url, displayUrl: url.replace('#', '#/display&') } } }
        : { body: { ok: true, value: {} } },
    );
    expect((await bridge.rotateShellToken({})).ok).toBe(true);
    expect(tokens.get()).toBe('NEW_token-0123456789ab');
    await advance();
    expect(shell.latest().headers.get('authorization')).toBe('Bearer NEW_token-0123456789ab');
    expect(shell.latest().headers.get('last-event-id')).toBe('b.0');
    await bridge.getAppInfo({});
    expect(shell.calls.at(-1)?.headers.get('authorization')).toBe('Bearer NEW_token-0123456789ab');
    shell.latest().push(readyFrame('b.0'));
    await advance();
    expect(connection.view().state).toBe('online');
  });

  it('stops the stream when the last listener goes', async () => {
    const { shell, unsubscribe } = setUp();
    await advance();
    const stream = shell.latest();
    unsubscribe();
    expect(stream.aborted()).toBe(true);
  });

  it('has no connection for a bridge that cannot be lost (the desktop preload)', () => {
    const desktop = buildWindowApi(
      () => Promise.resolve({ ok: true, value: {} }),
      () => () => undefined,
    );
    expect(connectionOf(desktop)).toBeNull();
  });

  it('reads the token of a shell address', () => {
    expect(tokenInUrl('http://127.0.0.1:1/#token=abc_-1')).toBe('abc_-1');
    expect(tokenInUrl('http://127.0.0.1:1/#/display&token=xyz')).toBe('xyz');
    expect(tokenInUrl('http://127.0.0.1:1/?token=xyz')).toBeNull();
  });
});
