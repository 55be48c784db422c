import type { TransactionRecord } from '#main/provider/schemas';
import { getAccountByReference } from '#main/store/accounts-repo';
import type { InflowRow } from '#main/store/inflows-repo';
import { getSaleByReference, getSaleOrThrow } from '#main/store/sales-repo';
import { applyConfirmed, asRecord } from './confirmation';
import { recordInflow, takeListedInflow, type ListedChange } from './inflow-recording';
import type { WatchEnv } from './watch-book';
import { isOutageAccount, matchOutagePayment } from './outage-matching';
import { watchSale } from './watching';

/**
 * A row of the provider's own listing (the sync, with our key): stored (or, when the sync has
 * stored it already, taken with what the sync saw), and a success for a sale not yet paid
 * confirms it through the normal confirmation path.
 */
export function recordListedRow(
  env: WatchEnv,
  tx: TransactionRecord,
  listed?: ListedChange,
): InflowRow {
  const { ctx } = env;
  const sale = getSaleByReference(ctx.db, tx.externalReference);
  const account = getAccountByReference(ctx.db, tx.externalReference);
  const link = { saleId: sale?.id ?? null, accountId: account?.id ?? null };
  const row = ctx.publisher.atomically(() => {
    const recorded = listed
      ? takeListedInflow(ctx, tx, link, listed)
      : recordInflow(ctx, tx, 'listing', link);
    // Money into the outage account: matched to its outage sale in the same transaction.
    if (isOutageAccount(account)) matchOutagePayment(ctx, recorded.row);
    return recorded.row;
  });
  if (sale && tx.status === 'success' && sale.paidSessionId === null) {
    void ctx.queue.run(sale.id, () => {
      ctx.publisher.atomically(() =>
        applyConfirmed(
          ctx,
          getSaleOrThrow(ctx.db, sale.id),
          asRecord(tx),
          'listing',
          ctx.scheduler.now(),
          // Our own look at the provider, like a check: the callback health waits for its callback.
          true,
        ),
      );
      watchSale(env, sale.id);
      return Promise.resolve();
    });
  }
  return row;
}
