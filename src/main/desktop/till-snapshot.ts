import type { ActivityView } from '#shared/bridge/contract';
import type { Environment } from '#shared/settings-schema';
import { isOpenSaleState, type SaleView } from '#shared/sales';
import type { CallbackHealthState, StatusView } from '#shared/views';

/** What the desktop shell needs to know of the till to decide about the tray, closing and power. */
export interface TillSnapshot {
  readonly environment: Environment;
  readonly callbacks: CallbackHealthState;
  /** The provider cannot be reached: no payment news comes until it is back (absent: reachable). */
  readonly providerUnreachable?: boolean;
  /** Sales still waiting for their money. */
  readonly openSales: number;
  /** Permanent standing accounts: money can arrive on them at any time. */
  readonly standingAccounts: number;
  readonly openAlerts: number;
  /** Counters paired to this hub with their event stream open: they sell through this till. */
  readonly connectedCounters: number;
}

/**
 * Open sales learned from 'sale-changed' events, by id. The activity list holds only today's
 * sales (the business day), so a sale opened before the day's cut-off would be missing from it;
 * the events keep it counted until it closes.
 */
export type OpenSaleBook = ReadonlyMap<number, SaleView>;

export const EMPTY_BOOK: OpenSaleBook = new Map();

/** The book after a sale changed: an open sale is kept (newest wins), a closed one dropped. */
export function noteSale(book: OpenSaleBook, sale: SaleView): OpenSaleBook {
  const known = book.get(sale.id);
  if (known && known.updatedAt > sale.updatedAt) return book;
  const next = new Map(book);
  if (isOpenSaleState(sale.state)) next.set(sale.id, sale);
  else next.delete(sale.id);
  return next;
}

/**
 * The till now. The activity was read after the events it follows, so it decides for every sale
 * it lists; the book adds the open sales it does not list.
 */
export function tillSnapshot(
  status: StatusView,
  activity: ActivityView,
  book: OpenSaleBook,
  connectedCounters = 0,
): TillSnapshot {
  const listed = new Set(activity.sales.map((sale) => sale.id));
  const openListed = activity.sales.filter((sale) => isOpenSaleState(sale.state)).length;
  const openElsewhere = [...book.keys()].filter((id) => !listed.has(id)).length;
  return {
    environment: status.environment,
    callbacks: status.callbackHealth.state,
    providerUnreachable: status.providerReach?.state === 'unreachable',
    openSales: openListed + openElsewhere,
    standingAccounts: activity.standingAccounts.length,
    openAlerts: status.openAlerts,
    connectedCounters,
  };
}
