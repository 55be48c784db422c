import { describe, expect, it } from 'vitest';
import {
  callbackUrlFor,
  CallbackUrlError,
  decideCallbackRoute,
  publicUrlProblem,
} from './callback-url';

const PATH = '/callbacks/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcd';

describe('callbackUrlFor', () => {
  it('joins the public base and the token path, keeping a proxy sub-path', () => {
    expect(callbackUrlFor({ publicBaseUrl: 'https://mama-put.ngrok.app', path: PATH })).toBe(
      `https://mama-put.ngrok.app${PATH}`,
    );
    expect(callbackUrlFor({ publicBaseUrl: 'https://shop.example.ng/till/', path: PATH })).toBe(
      `https://shop.example.ng/till${PATH}`,
    );
    expect(callbackUrlFor({ publicBaseUrl: 'http://127.0.0.1:4567', path: PATH })).toBe(
      `http://127.0.0.1:4567${PATH}`,
    );
    // Loopback is the one rule of src/shared/provider-url.ts: all of 127/8, localhost, [::1].
    for (const base of ['http://127.0.0.2:4567', 'http://localhost:4567', 'http://[::1]:4567']) {
      expect(callbackUrlFor({ publicBaseUrl: base, path: PATH })).toBe(`${base}${PATH}`);
    }
    expect(() =>
      callbackUrlFor({ publicBaseUrl: 'http://127.0.0.1.example.ng', path: PATH }),
    ).toThrowError(CallbackUrlError);
  });

  it('refuses plain http off this machine, queries, credentials and non-URLs', () => {
    for (const base of [
      'http://shop.example.ng',
      'https://shop.example.ng/?a=1',
      'https://u:p@shop.example.ng',
      'shop.example.ng',
      'ftp://x.ng',
    ]) {
      expect(() => callbackUrlFor({ publicBaseUrl: base, path: PATH })).toThrowError(
        CallbackUrlError,
      );
    }
    expect(publicUrlProblem('http://shop.example.ng')).toMatch(/https/);
    expect(publicUrlProblem('https://shop.example.ng')).toBeNull();
  });
});

describe('decideCallbackRoute', () => {
  const listener = { port: 4567, path: PATH };
  const online = { state: 'online', url: 'https://mama-put.ngrok.app' } as const;
  const base = { sandbox: false, listener, publicBaseUrl: '', tunnel: online } as const;

  it('sandbox: the local listener directly, whatever the settings say', () => {
    expect(
      decideCallbackRoute({
        ...base,
        sandbox: true,
        configuredMode: 'ngrok',
        tunnel: { state: 'off' },
      }),
    ).toEqual({ mode: 'local-sandbox', callbackUrl: `http://127.0.0.1:4567${PATH}` });
  });

  it("public-url mode: the shop's reverse proxy plus the token path", () => {
    expect(
      decideCallbackRoute({
        ...base,
        configuredMode: 'public-url',
        publicBaseUrl: 'https://pay.shop.ng',
      }),
    ).toEqual({ mode: 'public-url', callbackUrl: `https://pay.shop.ng${PATH}` });
  });

  it('ngrok mode: the tunnel URL when the tunnel is online', () => {
    expect(decideCallbackRoute({ ...base, configuredMode: 'ngrok' })).toEqual({
      mode: 'tunnel',
      callbackUrl: `https://mama-put.ngrok.app${PATH}`,
    });
  });

  it('polling-only, with a plain reason, in every other case', () => {
    const cases = [
      decideCallbackRoute({ ...base, configuredMode: 'polling-only' }),
      decideCallbackRoute({ ...base, configuredMode: 'ngrok', tunnel: { state: 'off' } }),
      decideCallbackRoute({ ...base, configuredMode: 'ngrok', tunnel: { state: 'connecting' } }),
      decideCallbackRoute({
        ...base,
        configuredMode: 'ngrok',
        tunnel: {
          state: 'error',
          code: 'NO_NETWORK',
          message: 'Cannot reach ngrok',
          retryInMs: 1000,
        },
      }),
      decideCallbackRoute({ ...base, configuredMode: 'ngrok', listener: null }),
      decideCallbackRoute({
        ...base,
        configuredMode: 'public-url',
        publicBaseUrl: 'http://pay.shop.ng',
      }),
    ];
    expect(cases).toEqual(
      [
        'No tunnel or public address is set up',
        'The ngrok tunnel is off',
        'The ngrok tunnel is still connecting',
        'Cannot reach ngrok',
        'The payment listener is not running',
        'The public address must start with https:// (the callback path is a secret)',
      ].map((reason) => ({
        mode: 'polling-only',
        reason: `${reason}: this sale is checked by polling`,
      })),
    );
  });
});
