/**
 * Where the provider lives. The interface names staging and production but gives no addresses:
 * they come from the provider's support team with the keys, and are entered in Settings. So no
 * URL is hard-coded here; we only check what is entered. Staging and production carry real
 * credentials and must use https unless they stay on this computer; the sandbox may use plain
 * http (the rule itself lives in src/shared/provider-url.ts, shared with the settings form).
 */
import { providerTransportProblem } from '../../shared/provider-url';
import { ProviderConfigError } from './errors';

export const PROVIDER_ENVIRONMENTS = ['sandbox', 'staging', 'production'] as const;
export type ProviderEnvironment = (typeof PROVIDER_ENVIRONMENTS)[number];

export interface ProviderProfile {
  readonly environment: ProviderEnvironment;
  /** {base_url} of the virtual-account endpoints, without a trailing slash. */
  readonly baseUrl: string;
  /** {payout_base_url} of the payout balance endpoint, without a trailing slash. */
  readonly payoutBaseUrl: string;
}

export function isProviderEnvironment(value: unknown): value is ProviderEnvironment {
  return typeof value === 'string' && (PROVIDER_ENVIRONMENTS as readonly string[]).includes(value);
}

function checkUrl(environment: ProviderEnvironment, field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ProviderConfigError(field, `${field} is required for the ${environment} environment`);
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ProviderConfigError(field, `${field} is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ProviderConfigError(field, `${field} must use http or https`);
  }
  const transport = providerTransportProblem(environment, url);
  if (transport !== null) {
    throw new ProviderConfigError(field, `${field} in ${environment} ${transport}`);
  }
  if (url.username || url.password) {
    throw new ProviderConfigError(field, `${field} must not carry a user name or password`);
  }
  if (url.search || url.hash) {
    throw new ProviderConfigError(field, `${field} must not carry a query or fragment`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * Checks a profile as entered (from settings or a form) and returns it normalised (trimmed,
 * no trailing slash). Throws ProviderConfigError naming the field.
 */
export function validateProviderProfile(input: {
  readonly environment: unknown;
  readonly baseUrl: unknown;
  readonly payoutBaseUrl: unknown;
}): ProviderProfile {
  if (!isProviderEnvironment(input.environment)) {
    throw new ProviderConfigError(
      'environment',
      `environment must be one of ${PROVIDER_ENVIRONMENTS.join(', ')}`,
    );
  }
  const environment = input.environment;
  return {
    environment,
    baseUrl: checkUrl(environment, 'baseUrl', input.baseUrl),
    payoutBaseUrl: checkUrl(environment, 'payoutBaseUrl', input.payoutBaseUrl),
  };
}

/**
 * The profile of our local sandbox server. Both endpoint families share one origin but not one
 * path: the sandbox serves {base_url} under `/api` and {payout_base_url} under `/payout`, so take
 * the two addresses it reports (startSandboxProvider's result, or the first line of
 * `npm run sandbox`) rather than its bare origin.
 */
export function sandboxProfile(urls: {
  readonly baseUrl: string;
  readonly payoutBaseUrl: string;
}): ProviderProfile {
  return validateProviderProfile({
    environment: 'sandbox',
    baseUrl: urls.baseUrl,
    payoutBaseUrl: urls.payoutBaseUrl,
  });
}
