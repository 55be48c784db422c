import { describe, expect, it, vi } from 'vitest';
import { createHttpBridge, takeToken } from './http-bridge';

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
    const bridge = createHttpBridge('tok', fetchImpl);
    const result = await bridge.getAppInfo({});
    expect(result).toEqual({ ok: true, value: { version: '1' } });
    expect(fetchImpl).toHaveBeenCalledWith('/api/call/getAppInfo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer tok' },
      body: '{}',
    });
  });

  it('turns a network failure into a BRIDGE_OFFLINE error', async () => {
    const bridge = createHttpBridge('tok', () => Promise.reject(new TypeError('fetch failed')));
    expect(await bridge.getAppInfo({})).toMatchObject({
      ok: false,
      error: { code: 'BRIDGE_OFFLINE' },
    });
  });
});
