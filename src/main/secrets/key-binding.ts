/**
 * A provider key is bound to the origin it was entered for: the secret store hands it out only
 * while its environment's address still has that origin, so re-aiming the Base URL or Payout
 * base URL at another host cannot carry a saved key there; the owner enters it again.
 */
import { AppError } from '#shared/errors';
import { ENVIRONMENT_NAMES, type Environment } from '#shared/environments';
import { keyAddressField, keyOrigin, type ProviderKeyName } from '#shared/provider-url';
import { keyLabelInText } from '#shared/settings/key-labels';
import { KEY_ADDRESS_LABELS } from '#shared/settings/registry';

/** An environment's addresses, as its profile in the settings holds them now. */
export interface KeyAddresses {
  readonly baseUrl: string;
  readonly payoutBaseUrl: string;
}

export class KeysEnteredElsewhereError extends AppError<'KEYS_ENTERED_ELSEWHERE'> {
  declare readonly field: string;
  constructor(message: string, field: ProviderKeyName) {
    super('KEYS_ENTERED_ELSEWHERE', message, { field });
    this.name = 'KeysEnteredElsewhereError';
  }
}

/**
 * Why a saved key cannot be sent where its environment's address points now, in the owner's
 * words (origins only, never the key), or null when it was entered for that origin.
 */
export function keyBindingProblem(
  environment: Environment,
  name: ProviderKeyName,
  boundOrigin: string,
  addresses: KeyAddresses,
): string | null {
  const current = keyOrigin(addresses, name);
  if (current === boundOrigin) return null;
  const field = KEY_ADDRESS_LABELS[keyAddressField(addresses, name)];
  const entered = boundOrigin
    ? `was entered for ${boundOrigin}`
    : `was entered before the ${field} was set`;
  const now = current ? `the ${field} now points to ${current}` : `the ${field} is now empty`;
  return `The ${ENVIRONMENT_NAMES[environment]} ${keyLabelInText(name)} ${entered}; ${now}. Enter the keys again in Settings → Connect provider.`;
}

/** A saved key as `get` reads it, or the reason it cannot be sent where its address points now. */
export function keyOrWhyNot(get: () => string | null): string | null | KeysEnteredElsewhereError {
  try {
    return get();
  } catch (error) {
    if (error instanceof KeysEnteredElsewhereError) return error;
    throw error;
  }
}
