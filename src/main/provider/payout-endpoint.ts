/**
 * The payout account and its balance (section 4.4): another base URL and another credential (the
 * payout access token) than the virtual-account endpoints.
 */
import type { Kobo } from '#shared/money';
import { credentialProblem } from './client-config';
import {
  invalidRequest,
  endpointUrl,
  wrongAnswer,
  type CallOptions,
  type EndpointContext,
} from './endpoint-context';
import type { ProviderRequest } from './http-exchange';
import type { PayoutAccount } from './schemas';

export interface PayoutAccountWithBalance extends PayoutAccount {
  /** The `AvailableBalance` entry's value: the amount available for payout, in kobo. */
  readonly availableBalanceKobo: Kobo;
}

/** Section 4.4: the payout account, with its AvailableBalance picked out. */
export async function getPayoutAccount(
  context: EndpointContext,
  accountId: string,
  options: CallOptions = {},
): Promise<PayoutAccountWithBalance> {
  if (typeof accountId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(accountId)) {
    throw invalidRequest(
      context,
      'balance',
      'accountId',
      'accountId must be the payout account number (letters and digits only)',
    );
  }
  const problem = credentialProblem('accessToken', context.accessToken);
  if (problem !== null) throw invalidRequest(context, 'balance', 'accessToken', problem);
  const subject = `payout account ${accountId}`;
  const request: ProviderRequest = {
    operation: 'balance',
    method: 'GET',
    url: endpointUrl(context.payoutBaseUrl, '/request/company/get-user-account', { accountId }),
    headers: {
      Authorization: `Bearer ${context.accessToken}`,
      'Content-Type': 'application/json',
      Accept: 'application/json',
    },
    subject,
  };
  const account = await context.read(request, context.schemas.payoutResponse, options.signal);
  if (account.id !== accountId) {
    throw wrongAnswer(
      context,
      'balance',
      'MALFORMED_RESPONSE',
      `The provider answered the balance lookup for ${subject} with another account.`,
    );
  }
  const available = account.balances.filter((b) => b.balanceType === 'AvailableBalance');
  if (available.length === 0) {
    throw wrongAnswer(
      context,
      'balance',
      'NO_AVAILABLE_BALANCE',
      `The provider's answer for ${subject} has no AvailableBalance entry, so the amount available for payout is unknown (it is not zero). Try again later or ask the provider's support team.`,
    );
  }
  const naira = available.filter((b) => b.currency === 'NGN');
  const [chosen] = naira.length === 1 ? naira : available.length === 1 ? available : [];
  if (!chosen || chosen.currency !== 'NGN') {
    throw wrongAnswer(
      context,
      'balance',
      'MALFORMED_RESPONSE',
      `The provider's answer for ${subject} has no single AvailableBalance in NGN (found ${available.length}, currencies ${available.map((b) => b.currency).join(', ')}).`,
    );
  }
  return { ...account, availableBalanceKobo: chosen.valueKobo };
}
