import { payeeNameOf } from '#shared/go-live';
import { ENVIRONMENT_NAMES, type Environment } from '#shared/settings-schema';
import type { EngineSettings } from '#main/engine/sales-engine';
import { createProviderClient, type ProviderClient } from '#main/provider/client';
import type { ReadRetryPolicy } from '#main/provider/read-retry';
import { keyOrWhyNot } from '#main/secrets/key-binding';
import type { SecretStore } from '#main/secrets/secret-store';
import type { SettingsStore } from '#main/settings/settings-store';
import { NotConfiguredError } from './not-configured-error';
import type { SandboxLink } from './sandbox-link';

export interface ProviderAccessOptions {
  readonly environment: Environment;
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  /** The sandbox in use on the SANDBOX profile (its keys and addresses win), or null. */
  readonly sandbox: () => SandboxLink | null;
  /** Whether the environment is the sandbox (its merchant id has a stand-in). */
  readonly isSandbox: boolean;
  readonly providerTimeoutMs?: number;
  readonly providerReadRetry?: ReadRetryPolicy;
}

/** One environment's way to the provider, read from the settings at each use. */
export interface ProviderAccess {
  /** The provider client (rebuilt when its keys, addresses or time zone change). */
  readonly client: () => ProviderClient;
  readonly payoutAccountId: () => string;
  readonly engineSettings: () => EngineSettings;
}

export function providerAccess(options: ProviderAccessOptions): ProviderAccess {
  const { environment, settings, secrets } = options;
  let cached: { key: string; client: ProviderClient } | null = null;

  function connection() {
    const profile = settings.get().profiles[environment];
    const given = options.sandbox()?.connection();
    return given
      ? {
          baseUrl: given.baseUrl,
          payoutBaseUrl: given.payoutBaseUrl,
          secretKey: given.secretKey,
          accessToken: given.accessToken,
        }
      : {
          baseUrl: profile.baseUrl,
          // Balance calls check that the payout base URL is set before they run (see
          // payoutAccountId); sales need only the base URL.
          payoutBaseUrl: profile.payoutBaseUrl || profile.baseUrl,
          // Throws when the key was entered for another origin: no sale goes out with it.
          secretKey: secrets.get(environment, 'secretKey') ?? '',
          accessToken: accessToken(),
        };
  }

  /**
   * The access token, or '' when it is not set or was entered for another origin: sales do
   * not need it, and a payout call needs payoutAccountId, which names that problem before
   * anything is sent.
   */
  function accessToken(): string {
    const token = keyOrWhyNot(() => secrets.get(environment, 'accessToken'));
    return typeof token === 'string' ? token : '';
  }

  function client(): ProviderClient {
    const config = connection();
    if (!config.baseUrl || !config.secretKey) {
      throw new NotConfiguredError(
        `${ENVIRONMENT_NAMES[environment]} is not set up yet: enter its base URL and secret key in Settings (the provider's support team gives them).`,
        !config.baseUrl ? 'baseUrl' : 'secretKey',
      );
    }
    const { timeZone } = settings.get();
    const key = JSON.stringify([config, timeZone]);
    if (cached?.key !== key) {
      cached = {
        key,
        client: createProviderClient({
          ...config,
          timeZone,
          ...(options.providerTimeoutMs === undefined
            ? {}
            : { timeoutMs: options.providerTimeoutMs }),
          ...(options.providerReadRetry ? { readRetry: options.providerReadRetry } : {}),
        }),
      };
    }
    return cached.client;
  }

  function payoutAccountId(): string {
    const link = options.sandbox();
    // A token entered for another origin than the payout address's: say so, send nothing.
    if (!link) secrets.get(environment, 'accessToken');
    const id = link
      ? link.connection().payoutAccountId
      : settings.get().profiles[environment].payoutAccountId;
    if (!id) {
      throw new NotConfiguredError(
        'Enter the payout account number in Settings (the provider gives it with the access token).',
        'payoutAccountId',
      );
    }
    return id;
  }

  function engineSettings(): EngineSettings {
    const current = settings.get();
    const profile = current.profiles[environment];
    return {
      accountName: payeeNameOf(profile.accountName, current.shop.name),
      merchantId: profile.merchantId || (options.isSandbox ? 'SANDBOX-MERCHANT' : ''),
      merchantCategory: profile.merchantCategory,
      expiryMinutes: profile.expiryMinutes,
      maxSaleKobo: current.maxSaleKobo,
      tillId: current.shop.tillId,
      standingFlagAboveKobo: current.standingAccounts.flagAboveKobo,
      outage: current.outage,
    };
  }

  return { client, payoutAccountId, engineSettings };
}
