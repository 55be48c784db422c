import { DISPLAY_ONLY_KEY, SESSION_KEY, TOKEN_KEY } from './http-bridge';

/**
 * A counter's token lives in the device's storage for the hub's address (not the tab's): a
 * tablet that closes the tab and opens the hub's address again is still paired.
 */
export const COUNTER_TOKEN_KEY = 'till.counter-token';

/** What main answers a removed counter's token with (401), on a call or its event stream. */
export const COUNTER_REVOKED = 'COUNTER_REVOKED';

/** The counter token this device keeps for the hub, or null. */
export function counterToken(device: Storage): string | null {
  return device.getItem(COUNTER_TOKEN_KEY);
}

/**
 * Keeps the token a pairing gave. What the tab held before (another token, its session, a
 * display-only mark) belonged to another principal, so it goes.
 */
export function keepCounterToken(token: string, device: Storage, tab: Storage): void {
  device.setItem(COUNTER_TOKEN_KEY, token);
  for (const key of [TOKEN_KEY, SESSION_KEY, DISPLAY_ONLY_KEY]) tab.removeItem(key);
}

/** Forgets a token that will never work again, wherever this page kept it. */
export function forgetToken(token: string, device: Storage, tab: Storage): void {
  if (device.getItem(COUNTER_TOKEN_KEY) === token) device.removeItem(COUNTER_TOKEN_KEY);
  if (tab.getItem(TOKEN_KEY) === token) {
    tab.removeItem(TOKEN_KEY);
    tab.removeItem(SESSION_KEY);
  }
}
