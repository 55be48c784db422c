/**
 * The payout balance screen: AvailableBalance of the payout account (the only figure to pay out
 * from, section 4.4), its other balances labelled, and the pre-payout check. Provider errors
 * pass through as the client's ProviderError; `balanceErrorAdvice` says what to do about them.
 */
import { MoneyError, assertKobo, formatNaira } from '#shared/money';
import type { BalanceView, PayoutCheckView } from '#shared/views';
import type { ProviderClient } from '#main/provider/client';
import { isProviderError } from '#main/provider/errors';

export async function getBalanceView(
  client: Pick<ProviderClient, 'getPayoutAccount'>,
  payoutAccountId: string,
  now: number,
  options: { readonly signal?: AbortSignal } = {},
): Promise<BalanceView> {
  const account = await client.getPayoutAccount(
    payoutAccountId,
    options.signal ? { signal: options.signal } : {},
  );
  // The client picked the one NGN AvailableBalance entry; every other entry is shown labelled.
  const available = account.balances.find(
    (b) =>
      b.balanceType === 'AvailableBalance' &&
      b.currency === 'NGN' &&
      b.valueKobo === account.availableBalanceKobo,
  );
  return {
    accountId: account.id,
    ownerName: account.ownerName ?? null,
    name: account.name ?? null,
    status: account.status ?? null,
    availableKobo: account.availableBalanceKobo,
    availableDisplay: available?.display ?? null,
    otherBalances: account.balances
      .filter((b) => b !== available)
      .map((b) => ({
        balanceType: b.currency === 'NGN' ? b.balanceType : `${b.balanceType} (${b.currency})`,
        valueKobo: b.valueKobo,
        display: b.display ?? null,
      })),
    refreshedAt: now,
  };
}

/** Does the available balance cover a payout total, and by how much does it fall short? */
export function checkPayout(
  balance: Pick<BalanceView, 'availableKobo' | 'refreshedAt'>,
  requestedKobo: number,
): PayoutCheckView {
  assertKobo(requestedKobo);
  if (requestedKobo <= 0) throw new MoneyError('Enter a payout total greater than ₦0.00.');
  const shortfallKobo = Math.max(0, requestedKobo - balance.availableKobo);
  return {
    availableKobo: balance.availableKobo,
    requestedKobo,
    covered: shortfallKobo === 0,
    shortfallKobo,
    refreshedAt: balance.refreshedAt,
  };
}

/** One sentence for the check's result, for screens and logs. */
export function describePayoutCheck(check: PayoutCheckView): string {
  return check.covered
    ? `Covered: ${formatNaira(check.availableKobo)} is available for a payout of ${formatNaira(check.requestedKobo)}.`
    : `Not covered: ${formatNaira(check.shortfallKobo)} short (available ${formatNaira(check.availableKobo)}, payout ${formatNaira(check.requestedKobo)}).`;
}

/** What a person should do about a failed balance lookup. */
export function balanceErrorAdvice(error: unknown): string {
  if (!isProviderError(error)) return 'The balance could not be read. Try again.';
  switch (error.code) {
    case 'PROVIDER_AUTH_REFUSED':
      return 'The provider refused the payout access token: it is wrong or has expired. Get a new token from the provider and enter it in Settings.';
    case 'NOT_FOUND':
      return 'The provider does not know this payout account. Check the payout account number in Settings.';
    case 'NETWORK':
    case 'TIMEOUT':
      return 'The provider could not be reached. Check the internet connection and the payout address in Settings, then refresh.';
    case 'NO_AVAILABLE_BALANCE':
      return "The provider's answer has no available balance, so do not pay out yet. Refresh later or ask the provider's support.";
    case 'INVALID_REQUEST':
      return `Settings are incomplete: ${error.message}`;
    case 'RATE_LIMITED':
      return 'The provider asked us to slow down. Wait a minute and refresh.';
    default:
      return 'The provider had a problem answering. Refresh in a moment; if it keeps failing, contact the provider.';
  }
}
