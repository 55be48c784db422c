import type { ProviderReach } from '#main/provider/provider-reach';
import type { Db } from '#main/store/database';
import { listUnconfirmedSales } from '#main/store/sales-repo';
import type { TransactionSync } from './sync';

/**
 * The link is back and outage sales wait: the merchant-wide listing shows every transfer made
 * meanwhile (the interface shows no callback retry schedule), so a sync runs now rather than at
 * the next scheduled one, and the matching confirms what it can. Returns the unsubscribe.
 */
export function syncWhenBackOnline(reach: ProviderReach, db: Db, sync: TransactionSync) {
  return reach.subscribe((view) => {
    if (view.state !== 'reachable' || listUnconfirmedSales(db).length === 0) return;
    void sync.run({ mode: 'incremental', trigger: 'back-online' });
  });
}
