/**
 * "Check everything"'s line for the till's standing account for outages: made now when the
 * till has none (the provider answers during the check), so that it is ready before an outage.
 */
import type { GoLiveCheckLine } from '#shared/go-live';
import type { Logger } from '#main/logging/logger';
import { createFailureOf } from '#main/engine/create-failure';
import type { SalesEngine } from '#main/engine/sales-engine';

export const OUTAGE_ACCOUNT_TITLE = 'Standing account for outages';

/** Makes (or finds) the account and reports it as a check line; never throws. */
export async function outageAccountLine(
  engine: Pick<SalesEngine, 'ensureOutageAccount'>,
  logger: Logger,
): Promise<GoLiveCheckLine> {
  try {
    const { account, made } = await engine.ensureOutageAccount();
    return {
      check: 'outage-account',
      ok: true,
      title: OUTAGE_ACCOUNT_TITLE,
      message: `${made ? 'Made and ready' : 'Ready'}: ${account.accountNumber ?? '—'} at ${account.bank ?? '—'} (${account.accountName ?? '—'}). When the provider cannot be reached, a sale can be taken on it and is confirmed when the link is back.`,
      advice: null,
    };
  } catch (error) {
    logger.warn({ err: error }, 'the standing account for outages was not made');
    const failure = createFailureOf(error);
    return {
      check: 'outage-account',
      ok: false,
      title: OUTAGE_ACCOUNT_TITLE,
      message: `Not made yet. ${failure.words}`,
      advice: failure.retryable
        ? 'Check again in a minute.'
        : 'Fix it above, save, then check again.',
    };
  }
}
