import type { BridgeEvent, Caller } from '../../shared/bridge/contract';
import { effectiveRole } from '../bridge/caller';

/**
 * Whether a pushed event may reach a listener, by the listener's role now (the same rule as the
 * channels): the owner hears everything; a cashier hears about their own sales and the money and
 * alerts that belong to them, never the sync or other sales; a signed-out page (a customer
 * display, a counter waiting for sign-in) hears sales change, which the display shows anyway.
 */
export function eventVisibleTo(
  event: BridgeEvent,
  caller: Caller,
  cashierOfSale: (saleId: number) => string | null,
): boolean {
  if (effectiveRole(caller) === 'owner') return true;
  const ownSale = (saleId: number | null) =>
    caller.name !== null && saleId !== null && cashierOfSale(saleId) === caller.name;
  switch (event.type) {
    case 'tunnel':
    case 'callback-health':
    case 'navigate':
      return true;
    case 'sale-changed':
      return caller.name === null || event.payload.cashier === caller.name;
    case 'inflow':
    case 'alert':
      return ownSale(event.payload.saleId);
    case 'sync-progress':
    case 'sync-finished':
      return false;
  }
}
