// Which sale the customer display shows and for how long: pure rules, shared by the display's
// hooks (use-display.ts) and the display opened with its own token (display-only.tsx).
import type { SaleState, SaleView } from '#shared/sales';

/** States the customer is shown a sale to pay in. */
const PAYING: readonly SaleState[] = ['creating', 'awaiting_payment', 'confirming', 'wrong_amount'];
/** States that end the shown sale: said for a few seconds, then "Welcome" returns. */
const ENDING: readonly SaleState[] = ['paid', 'paid_late', 'expired', 'cancelled'];
/** How long "Paid, thank you" or "This account has expired" stays before the welcome screen. */
export const THANK_YOU_MS = 8_000;
/**
 * How long "Payment received: please see the cashier" stays (unless a new sale takes over or
 * the shop records what it did): the customer may be walking back to the counter.
 */
export const SEE_CASHIER_MS = 60_000;
/**
 * How long an outage sale stays on the display after its last change, unless a new sale takes
 * over: the customer sends the exact amount in that time; the till has the sale after it.
 */
export const OUTAGE_SHOWN_MS = 5 * 60_000;

/**
 * Money the shop must decide about, nothing recorded yet (after the sale closed, or a second
 * payment to refund): the customer is sent to the cashier.
 */
function seeCashier(sale: SaleView): boolean {
  return (
    (sale.state === 'paid_late' && sale.lateResolution === null) || sale.refundsOwed.length > 0
  );
}

export function isShown(sale: SaleView): boolean {
  return PAYING.includes(sale.state) || sale.state === 'unconfirmed';
}

/** The newest sale worth showing, from a list (e.g. today's sales at start-up). */
export function pickCurrentSale(sales: readonly SaleView[]): SaleView | null {
  let best: SaleView | null = null;
  for (const sale of sales) {
    // An old "Thank you", "expired" or outage sale is not news.
    if (!PAYING.includes(sale.state)) continue;
    if (!best || sale.createdAt > best.createdAt) best = sale;
  }
  return best;
}

/**
 * The sale to show after `changed` (one of this till's): a newer open sale takes over; the shown
 * one ending (paid, expired, cancelled) is said until `shownFor` runs out, then "Welcome" (null).
 */
export function nextShownSale(current: SaleView | null, changed: SaleView): SaleView | null {
  if (isShown(changed)) {
    if (!current || current.id === changed.id || changed.createdAt >= current.createdAt) {
      return changed;
    }
    return current;
  }
  // Only the sale on screen is said to end: another's end is not this customer's news.
  if (current?.id === changed.id) {
    const dealtWith = resolvedLate(changed) || refundNoted(current, changed);
    return ENDING.includes(changed.state) && !dealtWith ? changed : null;
  }
  // Money for a closed sale is: its customer may be back at the counter. It never covers
  // a newer sale the customer is paying.
  if (seeCashier(changed) && (!current || !isShown(current))) return changed;
  return current;
}

/** How long a shown sale stays before "Welcome" returns; null while the customer is paying. */
export function shownFor(sale: SaleView): number | null {
  if (sale.state === 'unconfirmed') return OUTAGE_SHOWN_MS;
  if (!ENDING.includes(sale.state)) return null;
  return seeCashier(sale) ? SEE_CASHIER_MS : THANK_YOU_MS;
}

/** A refund the cashier noted ends "please see the cashier" (not a fresh "thank you"). */
function refundNoted(shown: SaleView, changed: SaleView): boolean {
  return shown.refundsOwed.length > 0 && changed.refundsOwed.length === 0;
}

/** A late payment the shop has dealt with is no longer the customer's news. */
function resolvedLate(sale: SaleView): boolean {
  return sale.state === 'paid_late' && sale.lateResolution !== null;
}
