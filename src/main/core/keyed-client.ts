/**
 * A provider client for a keyed environment (STAGING, LIVE) built from its saved profile and
 * keys, for the go-live checks: one attempt and a short timeout suit a button.
 */
import type { Environment, Profile } from '#shared/settings-schema';
import { createProviderClient, type ProviderClient } from '#main/provider/client';
import { ProviderConfigError } from '#main/provider/errors';
import { KeysEnteredElsewhereError, keyOrWhyNot } from '#main/secrets/key-binding';
import type { SecretStore } from '#main/secrets/secret-store';
import type { SettingsStore } from '#main/settings/settings-store';

export type KeyedEnvironment = Exclude<Environment, 'sandbox'>;

export type KeyedClient =
  | {
      readonly failure: {
        readonly message: string;
        readonly code: string;
        readonly advice?: string;
      };
    }
  | {
      readonly client: ProviderClient;
      readonly profile: Profile;
      readonly accessToken: string | null | KeysEnteredElsewhereError;
    };

/** A client for the environment's saved profile and keys, or why there is none. */
export function keyedClient(
  settings: SettingsStore,
  secrets: SecretStore,
  environment: KeyedEnvironment,
): KeyedClient {
  const profile = settings.get().profiles[environment];
  const secretKey = keyOrWhyNot(() => secrets.get(environment, 'secretKey'));
  if (secretKey instanceof KeysEnteredElsewhereError) {
    return { failure: { message: secretKey.message, code: secretKey.code } };
  }
  const accessToken = keyOrWhyNot(() => secrets.get(environment, 'accessToken'));
  if (!profile.baseUrl || !secretKey) {
    return {
      failure: {
        message: 'Enter the base URL and the secret key first.',
        code: 'NOT_CONFIGURED',
        advice:
          "Keys are not self-served: ask the provider's support team for this environment's keys.",
      },
    };
  }
  try {
    const client = createProviderClient({
      baseUrl: profile.baseUrl,
      payoutBaseUrl: profile.payoutBaseUrl || profile.baseUrl,
      secretKey,
      // A placeholder lets the listing check run; the balance check then reports the token.
      accessToken: typeof accessToken === 'string' ? accessToken : 'not-set-yet',
      timeZone: settings.get().timeZone,
      timeoutMs: 10_000,
      readRetry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
    });
    return { client, profile, accessToken };
  } catch (error) {
    if (error instanceof ProviderConfigError) {
      return { failure: { message: error.message, code: error.code } };
    }
    throw error;
  }
}
