import { describe, expect, it, vi } from 'vitest';
import { createHttpBridge, memorySlot, storageSlot, takeToken } from './http-bridge';

describe('takeToken', () => {
  it('takes the token from the fragment, keeps it for the tab and clears the address bar', () => {
    window.history.replaceState(null, '', '/display?x=1#token=abc_DEF-123');
    expect(takeToken(window.location, window.sessionStorage, window.history)).toBe('abc_DEF-123');
    expect(window.location.hash).toBe('');
    expect(window.location.search).toBe('?x=1');
    expect(takeToken(window.location, window.sessionStorage, window.history)).toBe('abc_DEF-123');
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
