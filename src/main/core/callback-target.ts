import type { Environment } from '#shared/settings-schema';
import type { CallbackRoute } from '#main/tunnel';

/** Where the provider is told to send an account's callbacks, and whether one can arrive. */
export function callbackTarget(
  environment: Environment,
  route: CallbackRoute,
): { readonly url: string; readonly live: boolean } {
  return route.mode === 'polling-only'
    ? // The provider requires a callback_url; with no public route we give the local one
      // (unreachable from the internet, so harmless) and poll.
      { url: `http://127.0.0.1/${environment}/polling-only`, live: false }
    : { url: route.callbackUrl, live: true };
}
