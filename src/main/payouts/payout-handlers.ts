import type { HandlersOf, payoutChannels } from '#shared/bridge/contract';
import { checkPayout, getBalanceView } from './balance';
import type { ProviderClient } from '#main/provider/client';
import { parseNairaInput } from '#main/engine/amount-input';

export interface PayoutHandlerDeps {
  /** The environment's provider client (throws NOT_CONFIGURED when it has no keys). */
  readonly client: () => ProviderClient;
  /** The payout account (throws NOT_CONFIGURED when it is not set). */
  readonly payoutAccountId: () => string;
  readonly now: () => number;
}

/** The payout account's balance, and whether a payout of an amount would go through. */
export function payoutHandlers(deps: PayoutHandlerDeps): HandlersOf<typeof payoutChannels> {
  const balance = () => getBalanceView(deps.client(), deps.payoutAccountId(), deps.now());
  return {
    getBalance: () => balance(),
    checkPayout: async ({ amount }) => {
      const requested = parseNairaInput(amount, 'amount');
      return checkPayout(await balance(), requested);
    },
  };
}
