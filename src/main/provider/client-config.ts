/**
 * The config checks of the provider client: what is refused when the client is built (URLs, zone,
 * limits, the retry policy), the per-call check of the keys, and the profile check of the
 * addresses as entered for an environment. A bad config is a ProviderConfigError naming the field.
 */
import { DEFAULT_PROVIDER_TIME_ZONE, assertTimeZone } from '#shared/provider-time';
import { checkAddress, type AddressProblem } from '#shared/provider-url';
import { ENVIRONMENTS, type Environment } from '#shared/settings-schema';
import { ProviderConfigError } from './errors';
import { DEFAULT_READ_RETRY, type ReadRetryPolicy, type Sleep } from './read-retry';

export interface ProviderClientConfig {
  /** {base_url} of the virtual-account endpoints. */
  readonly baseUrl: string;
  /** {payout_base_url} of the payout balance endpoint. */
  readonly payoutBaseUrl: string;
  readonly secretKey: string;
  readonly accessToken: string;
  /** Zone of the provider's timestamps; default Africa/Lagos. */
  readonly timeZone?: string;
  readonly fetch?: typeof fetch;
  /** Covers the whole exchange: connect, headers and body. Default 15 000 ms. */
  readonly timeoutMs?: number;
  readonly readRetry?: ReadRetryPolicy;
  /** The backoff's wait; it may end early when the signal fires (the client stops anyway). */
  readonly sleep?: Sleep;
  /** In [0, 1), for backoff jitter. */
  readonly random?: () => number;
  /** Default 10 MiB. */
  readonly maxResponseBytes?: number;
}

/** A config after its checks: URLs parsed, defaults filled in. */
export interface CheckedClientConfig {
  readonly baseUrl: URL;
  readonly payoutBaseUrl: URL;
  readonly timeZone: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly retry: ReadRetryPolicy;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Header values must be visible ASCII; anything else would make fetch throw mid-request. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/**
 * A provider address, by the one address rule of src/shared/provider-url.ts. With an environment
 * its transport rule applies too (a profile as entered); without one (the client), the settings
 * that fed it have applied it already.
 */
export function checkProviderUrl(field: string, value: string, environment?: Environment): URL {
  const { url, problem } = checkAddress(value, environment);
  if (problem === null) return url;
  throw new ProviderConfigError(field, providerUrlWords(field, problem, environment));
}

/** The address rule of src/shared/provider-url.ts in a config error's words. */
function providerUrlWords(
  field: string,
  problem: AddressProblem,
  environment: Environment | undefined,
): string {
  switch (problem.kind) {
    case 'not-absolute':
      return `${field} is not an absolute URL`;
    case 'scheme':
      return `${field} must use http or https`;
    case 'transport':
      return `${field} in ${environment} ${problem.words}`;
    case 'credentials':
      return `${field} must not carry a user name or password`;
    case 'query-or-fragment':
      return `${field} must not carry a query or fragment`;
  }
}

function checkPositive(field: string, value: number, integer: boolean): number {
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new ProviderConfigError(
      field,
      `${field} must be a positive ${integer ? 'whole ' : ''}number`,
    );
  }
  return value;
}

function checkRetryPolicy(policy: ReadRetryPolicy): ReadRetryPolicy {
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1 || policy.attempts > 10) {
    throw new ProviderConfigError('readRetry.attempts', 'readRetry.attempts must be 1 to 10');
  }
  for (const key of ['baseDelayMs', 'maxDelayMs'] as const) {
    if (!Number.isFinite(policy[key]) || policy[key] < 0) {
      throw new ProviderConfigError(`readRetry.${key}`, `readRetry.${key} must be 0 or more`);
    }
  }
  if (policy.baseDelayMs > policy.maxDelayMs) {
    throw new ProviderConfigError('readRetry', 'readRetry.baseDelayMs exceeds maxDelayMs');
  }
  return policy;
}

/** Everything checked once, when the client is built. The keys are checked per call. */
export function checkClientConfig(config: ProviderClientConfig): CheckedClientConfig {
  const baseUrl = checkProviderUrl('baseUrl', config.baseUrl);
  const payoutBaseUrl = checkProviderUrl('payoutBaseUrl', config.payoutBaseUrl);
  const timeZone = config.timeZone ?? DEFAULT_PROVIDER_TIME_ZONE;
  try {
    assertTimeZone(timeZone);
  } catch {
    throw new ProviderConfigError('timeZone', `timeZone is not a known IANA zone: ${timeZone}`);
  }
  return {
    baseUrl,
    payoutBaseUrl,
    timeZone,
    timeoutMs: checkPositive('timeoutMs', config.timeoutMs ?? DEFAULT_TIMEOUT_MS, false),
    maxResponseBytes: checkPositive(
      'maxResponseBytes',
      config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      true,
    ),
    retry: checkRetryPolicy(config.readRetry ?? DEFAULT_READ_RETRY),
  };
}

const CREDENTIAL_WORDS = {
  secretKey: { missing: 'no secret key is set for this environment', name: 'the secret key' },
  accessToken: {
    missing: 'no payout access token is set for this environment',
    name: 'the access token',
  },
} as const;

/**
 * Why a key cannot be sent, or null. Checked per call, not at build: a till without keys still
 * builds its client, and the call that needs the missing key says so without sending anything.
 */
export function credentialProblem(
  field: keyof typeof CREDENTIAL_WORDS,
  value: string,
): string | null {
  const words = CREDENTIAL_WORDS[field];
  if (!value) return words.missing;
  if (!HEADER_SAFE.test(value)) {
    return `${words.name} contains spaces or characters that cannot be sent`;
  }
  return null;
}

/** Where one environment's provider lives, as entered (no URL is hard-coded: support gives them). */
export interface ProviderProfile {
  readonly environment: Environment;
  /** {base_url} of the virtual-account endpoints, without a trailing slash. */
  readonly baseUrl: string;
  /** {payout_base_url} of the payout balance endpoint, without a trailing slash. */
  readonly payoutBaseUrl: string;
}

function checkProfileUrl(environment: Environment, field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ProviderConfigError(field, `${field} is required for the ${environment} environment`);
  }
  const url = checkProviderUrl(field, value.trim(), environment);
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
  const environment = ENVIRONMENTS.find((name) => name === input.environment);
  if (environment === undefined) {
    throw new ProviderConfigError(
      'environment',
      `environment must be one of ${ENVIRONMENTS.join(', ')}`,
    );
  }
  return {
    environment,
    baseUrl: checkProfileUrl(environment, 'baseUrl', input.baseUrl),
    payoutBaseUrl: checkProfileUrl(environment, 'payoutBaseUrl', input.payoutBaseUrl),
  };
}

/**
 * The profile of our local sandbox server. It serves {base_url} under `/api` and
 * {payout_base_url} under `/payout` of one origin, so take the two addresses it reports
 * (startSandboxProvider's result, or the first line of `npm run sandbox`), not its bare origin.
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
