/**
 * Go-live's trial account: the request a sale makes (a nonstatic account, with the profile's
 * Merchant ID, merchant category and payee name), for the smallest amount and the shortest
 * expiry. It is a real account at the provider that nobody is shown, so nobody pays into it.
 *
 * Where it is recorded: in the log only, never in the till's database. It is not a sale, so it
 * cannot appear in the day's sales, the report or Activity; its reference carries TRIAL where
 * a sale's run id goes, so the provider's own records show it as a trial too.
 */
import {
  payeeNameOf,
  SMALLEST_SALE_KOBO,
  TRIAL_CHOICE_LABEL,
  TRIAL_EXPIRY_MINUTES,
  type GoLiveCheckLine,
} from '#shared/go-live';
import { formatNaira } from '#shared/money';
import type { Logger } from '#main/logging/logger';
import type { ProviderClient } from '#main/provider/client';
import type { ReferenceGenerator } from '#main/provider/references';
import { createFailureOf } from '#main/engine/create-failure';
import type { SecretStore } from '#main/secrets/secret-store';
import type { SettingsStore } from '#main/settings/settings-store';
import { keyedClient, type KeyedEnvironment } from './keyed-client';

export const TRIAL_TITLE = "A sale's account";

export interface TrialRequest {
  readonly client: ProviderClient;
  readonly references: ReferenceGenerator;
  readonly accountName: string;
  readonly merchantId: string;
  readonly merchantCategory: string;
  readonly callbackUrl: string;
  readonly logger: Logger;
}

/** Makes the trial account and reports it as a check line; never throws. */
export async function makeTrialAccount(request: TrialRequest): Promise<GoLiveCheckLine> {
  const reference = request.references.next('trial');
  try {
    const account = await request.client.createVirtualAccount({
      reference,
      accountName: request.accountName,
      merchantId: request.merchantId,
      merchant: request.merchantCategory,
      type: 'nonstatic',
      amountKobo: SMALLEST_SALE_KOBO,
      expiryMinutes: TRIAL_EXPIRY_MINUTES,
      callbackUrl: request.callbackUrl,
    });
    request.logger.info(
      { reference, accountNumber: account.accountNumber, bank: account.bank },
      'go-live trial account made (not a sale)',
    );
    return {
      check: 'trial',
      ok: true,
      title: TRIAL_TITLE,
      message: `Trial account made: ${account.accountNumber} at ${account.bank}. A sale's account will be made the same way (this one asks for ${formatNaira(SMALLEST_SALE_KOBO)}, expires in ${TRIAL_EXPIRY_MINUTES} minute and is not a sale).`,
      advice: null,
    };
  } catch (error) {
    request.logger.warn({ reference, err: error }, 'go-live trial account failed');
    const failure = createFailureOf(error);
    return {
      check: 'trial',
      ok: false,
      title: TRIAL_TITLE,
      message: `The trial account was not made. ${failure.words}`,
      advice: failure.retryable
        ? 'Check again in a minute.'
        : 'Fix it above, save, then check again.',
    };
  }
}

export interface TrialDeps {
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly references: ReferenceGenerator;
  readonly logger: Logger;
  readonly callbackUrl: string;
  readonly environment: KeyedEnvironment;
}

/** The trial on a keyed environment's saved profile and keys, with the request a sale sends. */
export async function makeTrial(deps: TrialDeps): Promise<GoLiveCheckLine> {
  const built = keyedClient(deps.settings, deps.secrets, deps.environment);
  if ('failure' in built) {
    const { message, advice } = built.failure;
    return {
      check: 'trial',
      ok: false,
      title: TRIAL_TITLE,
      message: `The trial account was not made. ${message}`,
      advice: advice ?? null,
    };
  }
  return makeTrialAccount({
    client: built.client,
    references: deps.references,
    accountName: payeeNameOf(built.profile.accountName, deps.settings.get().shop.name),
    merchantId: built.profile.merchantId,
    merchantCategory: built.profile.merchantCategory,
    callbackUrl: deps.callbackUrl,
    logger: deps.logger,
  });
}

/** LIVE with the trial left unticked: nothing made, and what that leaves unproven. */
export const TRIAL_NOT_MADE: GoLiveCheckLine = {
  check: 'trial',
  ok: true,
  notRun: true,
  title: TRIAL_TITLE,
  message:
    "Not tried: no trial account was made, so it is not yet proven that the provider accepts the Merchant ID, merchant category and account display name for a sale's account.",
  advice: `Tick “${TRIAL_CHOICE_LABEL}” and check again, or watch the first sale closely.`,
};
