import type { CounterIdentity } from '#shared/hub';
import type { StatusView } from '#shared/views';
import { listOpenAlerts } from '#main/store/alerts-repo';
import type { Db } from '#main/store/database';
import { getSale } from '#main/store/sales-repo';

/**
 * The till's status as a paired counter sees it: its own till id (the footer and its receipts
 * name it), and only the open alerts it can see and acknowledge (those of its till's sales).
 */
export function statusForCounter(status: StatusView, counter: CounterIdentity, db: Db): StatusView {
  const openAlerts = listOpenAlerts(db).filter(
    (alert) => alert.saleId !== null && getSale(db, alert.saleId)?.tillId === counter.tillId,
  ).length;
  return { ...status, tillId: counter.tillId, openAlerts };
}
