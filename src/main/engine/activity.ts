import type { ActivityView, Caller } from '#shared/bridge/contract';
import { visibleOpenAlerts } from '#main/auth/alert-visibility';
import { inScope, scopeOf } from '#main/auth/ownership';
import { listStandingAccounts } from '#main/store/accounts-repo';
import type { Db } from '#main/store/database';
import { listRecentInflows } from '#main/store/inflows-repo';
import { listSalesCreatedBetween } from '#main/store/sales-repo';
import { listTillSaleIdsCreatedBetween } from '#main/store/till-sales-queries';
import { alertView, inflowView, ownerAlertView, standingAccountView } from './row-views';
import type { SalesEngine } from './sales-engine';

/**
 * The Activity read model: the business day's sales, money and open alerts the caller may see.
 * The owner sees everything; a cashier their own sales (a counter: its till's) and only the
 * money and alerts tied to one of them. Which sales are theirs is ownership.ts's one rule.
 */
export function activityOf(
  db: Db,
  engine: Pick<SalesEngine, 'getSale'>,
  caller: Caller,
  [from, to]: readonly [number, number],
): ActivityView {
  const scope = scopeOf(caller);
  if (scope.type === 'all') {
    return {
      sales: listSalesCreatedBetween(db, from, to).map((row) => engine.getSale(row.id)),
      inflows: listRecentInflows(db, from).map(inflowView),
      alerts: visibleOpenAlerts(db, caller).map((row) => ownerAlertView(db, row)),
      standingAccounts: listStandingAccounts(db).map(standingAccountView),
    };
  }
  const own = new Set(
    scope.type === 'till'
      ? listTillSaleIdsCreatedBetween(db, scope.tillId, from, to)
      : listSalesCreatedBetween(db, from, to)
          .filter((row) => inScope(scope, row))
          .map((row) => row.id),
  );
  const mine = (saleId: number | null) => saleId !== null && own.has(saleId);
  return {
    sales: [...own].map((id) => engine.getSale(id)),
    inflows: listRecentInflows(db, from)
      .filter((row) => mine(row.saleId))
      .map(inflowView),
    alerts: visibleOpenAlerts(db, caller).map((row) => alertView(row)),
    standingAccounts: [],
  };
}
