import { setAccountStatus } from '#main/store/accounts-repo';
import { listUnprocessedCallbacks } from '#main/store/callback-log-repo';
import { listWatchedSales } from '#main/store/sales-repo';
import { confirmCallback } from './callbacks';
import { changeSale } from './engine-context';
import { checkSaleStatus } from './sale-checks';
import type { WatchEnv } from './watch-book';
import { watchSale } from './watching';

/**
 * Start-up: finish what a stop interrupted. Every sale still worth watching is checked once
 * (with the listing lookup: the final word may have come while the app was down, deadline
 * included), then watched; stored callbacks never confirmed are confirmed now.
 */
export async function resumeSales(env: WatchEnv): Promise<void> {
  const { ctx } = env;
  const now = ctx.scheduler.now();
  for (const sale of listWatchedSales(ctx.db, now, ctx.policy.lateGraceMs)) {
    if (sale.state === 'creating') {
      // We never learned whether the provider made the account, and the cashier never saw a
      // number, so nobody can pay it: the sale failed to create and can be retried.
      if (sale.accountId !== null)
        setAccountStatus(ctx.db, sale.accountId, 'failed_to_create', now);
      changeSale(
        ctx,
        sale.id,
        {
          state: 'failed_to_create',
          cause: 'resume-interrupted',
          reason: 'The app stopped while the account was being created. Retry the sale.',
        },
        ['creating'],
      );
      continue;
    }
    void ctx.queue.run(sale.id, async () => {
      const checked = await checkSaleStatus(env, sale.id, 'resume', { lookup: true });
      watchSale(env, sale.id, checked?.decision?.kind === 'keep-checking' ? 'deadline' : undefined);
    });
  }
  for (const callback of listUnprocessedCallbacks(ctx.db)) {
    void ctx.queue.track(
      confirmCallback(env, callback.id, {
        reference: callback.hintReference ?? undefined,
        sessionId: callback.hintSessionId ?? undefined,
        amountKobo: callback.hintAmountKobo ?? undefined,
        status: callback.hintStatus ?? undefined,
      }),
    );
  }
  await ctx.queue.idle();
}
