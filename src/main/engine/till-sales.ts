import type { Db } from '#main/store/database';
import { hasAnySale as anySaleIn, listOpenSales } from '#main/store/sales-repo';

/** Whether the till has taken a sale yet (the shop's name is asked for before the first). */
export function hasAnySale(db: Db): boolean {
  return anySaleIn(db);
}

/** The sales still open: a change of environment or provider key would leave them unchecked. */
export function openSaleCount(db: Db): number {
  return listOpenSales(db).length;
}
