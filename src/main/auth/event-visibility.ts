import type { BridgeEvent, Caller } from '#shared/bridge/contract';
import { effectiveRole, pairedCounterOf } from './caller';
import type { SaleOwner } from './ownership';

export type { SaleOwner } from './ownership';

/**
 * Whether a pushed event may reach a listener, by the listener's role now (the same rule as the
 * channels): the owner hears everything; a cashier hears about their own sales and the money and
 * alerts that belong to them, never the sync or other sales; a signed-out page (a customer
 * display, a counter waiting for sign-in) hears sales change, which the display shows anyway.
 * A paired counter hears its own till's sales and their money and alerts, and the link's health;
 * never another till's, the sync, or the hub's menu. 'display-state' goes to customer displays
 * only, and the shell sends it to them directly: no listener here hears it.
 */
export function eventVisibleTo(
  event: BridgeEvent,
  caller: Caller,
  ownerOfSale: (saleId: number) => SaleOwner | null,
): boolean {
  if (event.type === 'display-state') return false;
  if (effectiveRole(caller) === 'owner') return true;
  if (caller.via === 'counter') return counterHears(event, caller, ownerOfSale);
  const ownSale = (saleId: number | null) =>
    caller.name !== null && saleId !== null && ownerOfSale(saleId)?.cashier === caller.name;
  switch (event.type) {
    case 'tunnel':
    case 'callback-health':
    case 'navigate':
    case 'store-space':
    case 'provider-reach':
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

/** A counter's rule: its till's sales only (a 'counter' listener with no counter hears none). */
function counterHears(
  event: Exclude<BridgeEvent, { type: 'display-state' }>,
  caller: Caller,
  ownerOfSale: (saleId: number) => SaleOwner | null,
): boolean {
  const tillId = pairedCounterOf(caller)?.tillId ?? null;
  const ownSale = (saleId: number | null) =>
    tillId !== null && saleId !== null && ownerOfSale(saleId)?.tillId === tillId;
  switch (event.type) {
    case 'tunnel':
    case 'callback-health':
    case 'store-space':
    case 'provider-reach':
      return true;
    case 'sale-changed':
      return tillId !== null && event.payload.tillId === tillId;
    case 'inflow':
    case 'alert':
      return ownSale(event.payload.saleId);
    case 'navigate':
    case 'sync-progress':
    case 'sync-finished':
      return false;
  }
}
