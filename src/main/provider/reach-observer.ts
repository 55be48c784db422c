/**
 * The provider client as the till uses it, with every call's end told to the reach state
 * (provider-reach.ts): an answer or a network error, before the caller hears of it, so that a
 * caller that catches a failed create can ask at once whether the provider was unreachable.
 */
import type { ProviderClient } from './client';
import { reachSignOf, type ProviderReach } from './provider-reach';

async function observed<T>(reach: ProviderReach, call: () => Promise<T>): Promise<T> {
  try {
    const value = await call();
    reach.note('answered');
    return value;
  } catch (error) {
    reach.note(reachSignOf(error));
    throw error;
  }
}

/** The same client, each call observed. */
export function observeReach(client: ProviderClient, reach: ProviderReach): ProviderClient {
  return {
    createVirtualAccount: (input, options) =>
      observed(reach, () => client.createVirtualAccount(input, options)),
    getPaymentStatus: (reference, options) =>
      observed(reach, () => client.getPaymentStatus(reference, options)),
    checkPayment: (reference, options) =>
      observed(reach, () => client.checkPayment(reference, options)),
    listTransactions: (page, options) =>
      observed(reach, () => client.listTransactions(page, options)),
    getPayoutAccount: (accountId, options) =>
      observed(reach, () => client.getPayoutAccount(accountId, options)),
  };
}

/**
 * The observed client of whatever client `client()` answers now (it is rebuilt when keys or
 * addresses change): the wrapper is made again only when the client underneath is new.
 */
export function observedClient(
  client: () => ProviderClient,
  reach: ProviderReach,
): () => ProviderClient {
  let last: { readonly raw: ProviderClient; readonly observed: ProviderClient } | null = null;
  return () => {
    const raw = client();
    if (last?.raw !== raw) last = { raw, observed: observeReach(raw, reach) };
    return last.observed;
  };
}
