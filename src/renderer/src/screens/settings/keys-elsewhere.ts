/**
 * Saved keys are sent only to the origin they were entered for (main refuses anything else). The
 * form says so as it is typed: at the address field whose new origin the saved keys were not
 * entered for, and at each such key, which must be entered again. Origins only; never a key.
 */
import {
  keyAddressField,
  keyOrigin,
  type KeyAddressField,
  type ProviderKeyName,
} from '#shared/provider-url';
import type { SecretStatusView } from '#shared/views';

/** An environment's addresses as the form holds them now (typed, perhaps not saved). */
export interface TypedAddresses {
  readonly baseUrl: string;
  readonly payoutBaseUrl: string;
}

export type KeyStatuses = Readonly<Record<ProviderKeyName, SecretStatusView | null>>;

const KEY_NAMES: readonly ProviderKeyName[] = ['secretKey', 'accessToken'];

/** The origin a saved key was entered for, when the address it would go to now has another. */
function enteredElsewhere(
  addresses: TypedAddresses,
  name: ProviderKeyName,
  status: SecretStatusView | null,
): string | null {
  if (!status?.set || status.boundOrigin === null) return null;
  return keyOrigin(addresses, name) === status.boundOrigin ? null : status.boundOrigin;
}

/** What an address field says when saved keys were entered for another origin, or null. */
export function addressKeyNotice(
  addresses: TypedAddresses,
  statuses: KeyStatuses,
  field: KeyAddressField,
): string | null {
  const origins = KEY_NAMES.filter((name) => keyAddressField(addresses, name) === field)
    .map((name) => enteredElsewhere(addresses, name, statuses[name]))
    .filter((origin): origin is string => origin !== null);
  if (origins.length === 0) return null;
  const named = [...new Set(origins)].filter((origin) => origin !== '');
  return named.length > 0
    ? `Saved keys were entered for ${named.join(' and ')}; enter them again to use this address`
    : 'Saved keys were entered before this address was set; enter them again to use this address';
}

/** A key's status as the form stands: one entered for another origin must be entered again. */
export function keyStatusAt(
  addresses: TypedAddresses,
  name: ProviderKeyName,
  status: SecretStatusView | null,
): SecretStatusView | null {
  const origin = enteredElsewhere(addresses, name, status);
  if (origin === null || status === null || status.problem !== null) return status;
  const entered = origin === '' ? 'before its address was set' : `for ${origin}`;
  return {
    ...status,
    problem: `Entered ${entered}: enter it again to use it at this address`,
  };
}
