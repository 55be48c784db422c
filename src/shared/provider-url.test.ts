import { describe, expect, it } from 'vitest';
import {
  checkAddress,
  isLoopbackHostname,
  keyAddressField,
  keyOrigin,
  providerTransportProblem,
} from './provider-url';
import { settingsSchema } from './settings-schema';

const hostOf = (url: string) => new URL(url).hostname;

describe('isLoopbackHostname', () => {
  it.each([
    'http://127.0.0.1:4010/api',
    'http://127.255.255.254/',
    'http://127.1/', // the URL parser expands short IPv4 forms
    'http://0x7f000001/',
    'http://localhost:4010/',
    'http://LOCALHOST/',
    'http://[::1]:4010/',
    'http://[0:0:0:0:0:0:0:1]/',
  ])('%s is this computer', (url) => {
    expect(isLoopbackHostname(hostOf(url))).toBe(true);
  });

  it.each([
    'http://128.0.0.1/',
    'http://10.0.0.5/',
    'http://192.168.1.20:4010/',
    'http://[::2]/',
    'http://[::ffff:7f00:1]/',
    'http://localhost.example.com/',
    'http://127.0.0.1.nip.io/',
    'http://api.provider.example/',
  ])('%s is not', (url) => {
    expect(isLoopbackHostname(hostOf(url))).toBe(false);
  });
});

describe('providerTransportProblem', () => {
  it('lets staging and production use plain http only to this computer', () => {
    for (const environment of ['staging', 'production'] as const) {
      expect(providerTransportProblem(environment, new URL('https://api.example'))).toBeNull();
      expect(providerTransportProblem(environment, new URL('http://127.0.0.1:9/api'))).toBeNull();
      expect(providerTransportProblem(environment, new URL('http://localhost:9/api'))).toBeNull();
      expect(providerTransportProblem(environment, new URL('http://[::1]:9/api'))).toBeNull();
      expect(providerTransportProblem(environment, new URL('http://api.example'))).toMatch(
        /must start with https:\/\/.*127\.0\.0\.1, localhost or \[::1\]/,
      );
      expect(providerTransportProblem(environment, new URL('http://192.168.1.2/'))).toMatch(
        /https/,
      );
    }
  });

  it('lets the sandbox use plain http anywhere, and nobody use another scheme', () => {
    expect(providerTransportProblem('sandbox', new URL('http://192.168.1.2:4010/api'))).toBeNull();
    expect(providerTransportProblem('sandbox', new URL('ftp://127.0.0.1/'))).toMatch(/https/);
    expect(providerTransportProblem('production', new URL('ftp://127.0.0.1/'))).toMatch(/https/);
  });
});

describe('the settings schema follows the same rule', () => {
  function problemsOf(profile: Record<string, string>) {
    const result = settingsSchema.safeParse({ profiles: { production: profile } });
    return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
  }

  it('accepts loopback http for production and refuses other http', () => {
    expect(
      problemsOf({ baseUrl: 'http://127.0.0.1:4010/api', payoutBaseUrl: 'http://[::1]:4010/p' }),
    ).toEqual([]);
    expect(
      problemsOf({ baseUrl: 'http://api.example', payoutBaseUrl: 'http://10.1.1.1/payout' }),
    ).toEqual(['profiles.production.baseUrl', 'profiles.production.payoutBaseUrl']);
  });

  it('keeps the SANDBOX profile on the shared sandbox field only', () => {
    const parsed = settingsSchema.parse({
      profiles: { sandbox: { sandboxUrl: ' http://127.0.0.1:4010/control ' } },
    });
    expect(parsed.profiles.sandbox.sandboxUrl).toBe('http://127.0.0.1:4010/control');
    expect(settingsSchema.parse({}).profiles.sandbox.sandboxUrl).toBe('');
    expect('sandboxUrl' in settingsSchema.parse({}).profiles.staging).toBe(false);
    const bad = settingsSchema.safeParse({
      profiles: { sandbox: { sandboxUrl: 'http://u:p@127.0.0.1:4010/control' } },
    });
    expect(bad.success).toBe(false);
  });
});

describe('checkAddress: the one address rule', () => {
  const kindOf = (value: string, environment?: 'sandbox' | 'staging' | 'production') =>
    checkAddress(value, environment).problem?.kind ?? null;

  it('names each problem, in the order the callers have always reported them', () => {
    expect(kindOf('api.example')).toBe('not-absolute');
    expect(kindOf('ftp://api.example')).toBe('scheme');
    expect(kindOf('https://u:p@api.example')).toBe('credentials');
    expect(kindOf('https://api.example/?a=1')).toBe('query-or-fragment');
    expect(kindOf('https://api.example/#top')).toBe('query-or-fragment');
    // The transport comes before the rest: plain http to production is the first thing to fix.
    expect(kindOf('http://u:p@api.example', 'production')).toBe('transport');
    expect(kindOf('http://u:p@api.example')).toBe('credentials');
  });

  it('gives back the parsed URL when there is nothing wrong', () => {
    const { url, problem } = checkAddress('http://127.0.0.1:4010/api', 'production');
    expect(problem).toBeNull();
    expect(url?.pathname).toBe('/api');
  });
});

describe('the origin a provider key is bound to', () => {
  const profile = (baseUrl: string, payoutBaseUrl = '') => ({ baseUrl, payoutBaseUrl });

  it('is scheme, host and port: a new path keeps it, the default port is no change', () => {
    expect(keyOrigin(profile('https://API.provider.example:443/v1'), 'secretKey')).toBe(
      'https://api.provider.example',
    );
    expect(keyOrigin(profile('https://api.provider.example/v2/'), 'secretKey')).toBe(
      'https://api.provider.example',
    );
    expect(keyOrigin(profile('http://127.0.0.1:4010/api'), 'secretKey')).toBe(
      'http://127.0.0.1:4010',
    );
    expect(keyOrigin(profile(''), 'secretKey')).toBe('');
  });

  it('is the Payout base URL for the access token, the Base URL while that is empty', () => {
    const both = profile('https://api.provider.example', 'https://payouts.provider.example/x');
    expect(keyAddressField(both, 'accessToken')).toBe('payoutBaseUrl');
    expect(keyOrigin(both, 'accessToken')).toBe('https://payouts.provider.example');
    expect(keyAddressField(profile('https://api.provider.example'), 'accessToken')).toBe('baseUrl');
  });
});
