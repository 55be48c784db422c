import { getAlert } from '#main/store/alerts-repo';
import type { Db } from '#main/store/database';
import { getSale } from '#main/store/sales-repo';
import type { OwnershipLookup } from './ownership';

/**
 * The ownership lookup over the active environment's database (a getter: the database changes
 * when the shop switches environments, and throws a coded BUSY error while it does).
 */
export function ownershipLookup(db: () => Db): OwnershipLookup {
  return {
    sale(saleId) {
      const sale = getSale(db(), saleId);
      return sale && { cashier: sale.cashier, tillId: sale.tillId };
    },
    alert(alertId) {
      const alert = getAlert(db(), alertId);
      return alert && { saleId: alert.saleId };
    },
  };
}
