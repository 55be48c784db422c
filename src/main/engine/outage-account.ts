/**
 * The till's standing account for outages: one `static-flex` account made while the provider
 * answers ("Check everything", or the first start online), kept in the till's store, so that a
 * sale can still be taken on it when the provider cannot be reached.
 */
import { getOutageAccount, type AccountRow } from '#main/store/accounts-repo';
import type { EngineContext } from './engine-context';
import { createStandingAccount } from './standing-accounts';

export interface OutageAccountKeeper {
  /** The account, made now when there is none (one request at a time); throws what the provider did. */
  ensure(): Promise<{ readonly account: AccountRow; readonly made: boolean }>;
}

export function createOutageAccountKeeper(ctx: EngineContext): OutageAccountKeeper {
  let making: Promise<AccountRow> | null = null;
  return {
    async ensure() {
      const kept = getOutageAccount(ctx.db);
      if (kept) return { account: kept, made: false };
      // Two presses of "Check everything", or a check during the start's own try: one account.
      making ??= createStandingAccount(ctx, { type: 'static-flex', purpose: 'outage' }).finally(
        () => {
          making = null;
        },
      );
      const account = await making;
      ctx.logger.info({ accountId: account.id, bank: account.bank }, 'outage account made');
      return { account, made: true };
    },
  };
}
