/**
 * The customer display's access: a token of its own that calls no channel and whose stream
 * carries only what the customer may see (this till's sales). It is derived from the shell
 * token, so that rotating the shell token rotates it too and nothing more is kept on disk.
 */
import { createHmac } from 'node:crypto';
import type { BridgeEvent } from '#shared/bridge/contract';
import type { DisplayStateView } from '#shared/hub';
import type { SaleState, SaleView } from '#shared/sales';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import type { Core } from '#main/core/create-core';

/** 22 base64url characters: 132 bits, as long as the shell token itself. */
const DISPLAY_TOKEN_LENGTH = 22;

/** base64url(HMAC-SHA256(key = shell token, "customer-display")), cut to 22 characters. */
export function displayTokenFor(shellToken: string): string {
  return createHmac('sha256', shellToken)
    .update('customer-display')
    .digest('base64url')
    .slice(0, DISPLAY_TOKEN_LENGTH);
}

/** States a customer is shown a sale in (a paid one is "Thank you", not news at start). */
const OPEN_SHOWN: readonly SaleState[] = [
  'creating',
  'awaiting_payment',
  'confirming',
  'wrong_amount',
];

/** A sale of this till: its own id, or none (sales from before till ids were kept). */
export function ofTill(sale: SaleView, tillId: string): boolean {
  return sale.tillId === null || sale.tillId === tillId;
}

/** The newest open sale of this till worth showing the customer, or null. */
export function currentDisplaySale(sales: readonly SaleView[], tillId: string): SaleView | null {
  let best: SaleView | null = null;
  for (const sale of sales) {
    if (!OPEN_SHOWN.includes(sale.state) || !ofTill(sale, tillId)) continue;
    if (!best || sale.createdAt > best.createdAt) best = sale;
  }
  return best;
}

/** What the display shows now: the shop, this till, and its current sale. */
export async function displayState(core: Core): Promise<DisplayStateView> {
  const { shop } = core.settings.get();
  let sale: SaleView | null = null;
  try {
    const activity = await core.handlers.getActivity({}, IN_PROCESS_OWNER);
    sale = currentDisplaySale(activity.sales, shop.tillId);
  } catch (error) {
    // Switching environments answers BUSY for a moment: the welcome screen, then live events.
    core.log.logger.debug({ err: error }, 'customer display: sales not readable now');
  }
  return { shopName: shop.name, tillId: shop.tillId, sale };
}

/**
 * Sends the display's state again whenever the shop's name or this till's id changes (what it
 * shows besides the sale); returns the unsubscribe.
 */
export function watchDisplayState(core: Core, send: (state: DisplayStateView) => void): () => void {
  let shown = core.settings.get().shop;
  return core.settings.subscribe((next) => {
    if (next.shop.name === shown.name && next.shop.tillId === shown.tillId) return;
    shown = next.shop;
    void displayState(core).then(send);
  });
}

/** What a display's stream carries: this till's sale changes, nothing else. */
export function displayWants(event: BridgeEvent, tillId: string): boolean {
  return event.type === 'sale-changed' && ofTill(event.payload, tillId);
}
