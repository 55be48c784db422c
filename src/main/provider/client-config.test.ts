import { describe, expect, it } from 'vitest';
import { sandboxProfile, validateProviderProfile } from './client-config';

describe('validateProviderProfile', () => {
  it('accepts https for staging and production and normalises the URLs', () => {
    expect(
      validateProviderProfile({
        environment: 'production',
        baseUrl: ' https://api.provider.example/v1/ ',
        payoutBaseUrl: 'https://payout.provider.example',
      }),
    ).toEqual({
      environment: 'production',
      baseUrl: 'https://api.provider.example/v1',
      payoutBaseUrl: 'https://payout.provider.example',
    });
  });

  it('accepts plain http for the local sandbox only', () => {
    expect(
      sandboxProfile({
        baseUrl: 'http://127.0.0.1:4010/api/',
        payoutBaseUrl: 'http://127.0.0.1:4010/payout',
      }),
    ).toEqual({
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1:4010/api',
      payoutBaseUrl: 'http://127.0.0.1:4010/payout',
    });
    // The two families keep their own paths; a bare origin is not assumed for either.
    expect(() =>
      sandboxProfile({ baseUrl: 'http://127.0.0.1:4010/api', payoutBaseUrl: '' }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', field: 'payoutBaseUrl' }));
    for (const environment of ['staging', 'production']) {
      expect(() =>
        validateProviderProfile({
          environment,
          baseUrl: 'http://api.provider.example',
          payoutBaseUrl: 'https://payout.provider.example',
        }),
      ).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', field: 'baseUrl' }));
    }
  });

  it('accepts plain http for staging and production only on this computer', () => {
    for (const environment of ['staging', 'production']) {
      expect(
        validateProviderProfile({
          environment,
          baseUrl: 'http://127.0.0.1:4010/api/',
          payoutBaseUrl: 'http://localhost:4010/payout',
        }),
      ).toEqual({
        environment,
        baseUrl: 'http://127.0.0.1:4010/api',
        payoutBaseUrl: 'http://localhost:4010/payout',
      });
      const onTheLan = () =>
        validateProviderProfile({
          environment,
          baseUrl: 'https://api.provider.example',
          payoutBaseUrl: 'http://192.168.0.10:4010/payout',
        });
      expect(onTheLan).toThrow(
        expect.objectContaining({ code: 'INVALID_CONFIG', field: 'payoutBaseUrl' }),
      );
      expect(onTheLan).toThrow(/https.*this computer/);
    }
  });

  it.each([
    ['environment', { environment: 'live' }],
    ['baseUrl', { baseUrl: '' }],
    ['baseUrl', { baseUrl: 42 }],
    ['baseUrl', { baseUrl: 'api.provider.example' }],
    ['payoutBaseUrl', { payoutBaseUrl: 'https://user:pw@payout.provider.example' }],
    ['payoutBaseUrl', { payoutBaseUrl: 'https://payout.provider.example/?key=1' }],
    ['payoutBaseUrl', { payoutBaseUrl: 'ftp://payout.provider.example' }],
  ])('refuses a bad %s', (field, change) => {
    expect(() =>
      validateProviderProfile({
        environment: 'staging',
        baseUrl: 'https://api.provider.example',
        payoutBaseUrl: 'https://payout.provider.example',
        ...change,
      }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', field }));
  });
});
