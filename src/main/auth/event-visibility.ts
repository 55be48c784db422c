import type { BridgeEvent, Caller } from '#shared/bridge/contract';
import { inScope, scopeOf, type SaleOwner } from './ownership';

export type { SaleOwner } from './ownership';

/**
 * Whether a pushed event may reach a listener, by the sales the listener may see now
 * (ownership.ts's scopeOf, the same rule as the channels): the owner hears everything; a
 * cashier, or a counter paired to the hub, hears its own sales changing and the money and alerts
 * tied to them, and the link's health; never the sync or other sales. A signed-out page of the
 * hub (a customer display, a page waiting for sign-in) hears sales change, which the display
 * shows anyway; the hub's menu ('navigate') is for the hub's own pages. 'display-state' goes to
 * customer displays only, and the shell sends it to them directly: no listener here hears it.
 */
export function eventVisibleTo(
  event: BridgeEvent,
  caller: Caller,
  ownerOfSale: (saleId: number) => SaleOwner | null,
): boolean {
  if (event.type === 'display-state') return false;
  const scope = scopeOf(caller);
  if (scope.type === 'all') return true;
  const hubPage = caller.via !== 'counter';
  const ownSale = (saleId: number | null) => {
    const owner = saleId === null ? null : ownerOfSale(saleId);
    return owner !== null && inScope(scope, owner);
  };
  switch (event.type) {
    case 'tunnel':
    case 'callback-health':
    case 'store-space':
    case 'provider-reach':
      return true;
    case 'navigate':
      return hubPage;
    case 'sale-changed':
      return (hubPage && caller.name === null) || inScope(scope, event.payload);
    case 'inflow':
    case 'alert':
      return ownSale(event.payload.saleId);
    case 'sync-progress':
    case 'sync-finished':
      return false;
  }
}
