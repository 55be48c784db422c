/**
 * The one rule for how a till may reach a provider. Staging and production carry real keys in
 * every request, so they need https, except to this computer (a provider or stand-in run
 * locally by an integrator, where nothing crosses a network). The SANDBOX profile talks to our
 * own sandbox provider, whose keys move no money, so plain http is fine there wherever it runs.
 * Pure: the renderer's settings form and main's checks use the same function.
 */
import type { Environment } from './settings-schema';

/** "127.0.0.0/8, localhost or [::1]" in words, for messages. */
export const LOOPBACK_WORDS = 'this computer (127.0.0.1, localhost or [::1])';

/**
 * Whether a URL's hostname (as `new URL(...).hostname` gives it: lower-case, IPv4 in dotted
 * form, IPv6 in brackets and compressed) names this computer.
 */
export function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  // The URL parser has already turned 127.1, 0x7f.1 and friends into dotted decimal.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** What is wrong with an address, in no one's words: each caller says it in its own. */
export type AddressProblem =
  | { readonly kind: 'not-absolute' }
  | { readonly kind: 'scheme' }
  /** `words` as providerTransportProblem gives them ("must start with https:// ..."). */
  | { readonly kind: 'transport'; readonly words: string }
  | { readonly kind: 'credentials' }
  | { readonly kind: 'query-or-fragment' };

export type AddressCheck =
  | { readonly url: URL; readonly problem: null }
  | { readonly url: null; readonly problem: AddressProblem };

/**
 * The one shape rule for an address the till calls or is called at (the settings form's web
 * addresses and the provider client's): absolute, http or https, no user name or password, no
 * query or fragment. With an environment, the transport rule below applies too, checked right
 * after the scheme.
 */
export function checkAddress(value: string, environment?: Environment): AddressCheck {
  const fail = (problem: AddressProblem): AddressCheck => ({ url: null, problem });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail({ kind: 'not-absolute' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail({ kind: 'scheme' });
  const transport = environment === undefined ? null : providerTransportProblem(environment, url);
  if (transport !== null) return fail({ kind: 'transport', words: transport });
  if (url.username || url.password) return fail({ kind: 'credentials' });
  if (url.search || url.hash) return fail({ kind: 'query-or-fragment' });
  return { url, problem: null };
}

/**
 * Why `url` cannot carry the keys of `environment`, or null when it can. Only the transport is
 * judged here (https, or plain http where that is safe); the URL's shape is checked elsewhere.
 */
export function providerTransportProblem(environment: Environment, url: URL): string | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol !== 'http:') return 'must start with https://';
  if (environment === 'sandbox' || isLoopbackHostname(url.hostname)) return null;
  return `must start with https:// (the secret key travels with every request); plain http:// is allowed only to ${LOOPBACK_WORDS}`;
}

/** The provider keys an environment keeps; each travels to one address of its profile. */
export type ProviderKeyName = 'secretKey' | 'accessToken';
export type KeyAddressField = 'baseUrl' | 'payoutBaseUrl';

/**
 * Which address a key is sent to: the secret key (with the merchant id) to the Base URL, the
 * access token to the Payout base URL, or to the Base URL while that is empty, as the provider
 * client is built.
 */
export function keyAddressField(
  profile: { readonly payoutBaseUrl: string },
  name: ProviderKeyName,
): KeyAddressField {
  return name === 'accessToken' && profile.payoutBaseUrl !== '' ? 'payoutBaseUrl' : 'baseUrl';
}

/**
 * The origin (scheme, host and port) a key is bound to: a saved key is sent only to the origin
 * it was entered for; a new path at the same origin keeps it. '' for no address (or one that is
 * not an address).
 */
export function addressOrigin(address: string): string {
  const check = checkAddress(address.trim());
  return check.url === null ? '' : check.url.origin;
}

/** The origin a key of `profile` is sent to now. */
export function keyOrigin(
  profile: { readonly baseUrl: string; readonly payoutBaseUrl: string },
  name: ProviderKeyName,
): string {
  return addressOrigin(profile[keyAddressField(profile, name)]);
}
