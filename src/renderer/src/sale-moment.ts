import { isOpenSaleState, type SaleView } from '#shared/sales';

/**
 * What a sale on screen asks of the people in front of it, on the till and the customer
 * display alike:
 * - 'payable': the number may be paid into now (shown with its QR and Copy);
 * - 'processing': the customer's bank has received the transfer and not yet confirmed it: no
 *   number to pay into, so nobody pays again;
 * - 'time_up': the time given has run out by the service's clock while main still makes its
 *   last check with the provider (a few seconds): shown as expired already;
 * - 'refund_owed': the customer paid twice and the extra is not yet noted as refunded;
 * - 'unconfirmed': an outage sale on the shop's standing account: the exact amount may be sent
 *   (no countdown), and the shop's policy says what the cashier does while it is not confirmed;
 * - 'closed': every other end (paid, paid late, expired, cancelled, could not start).
 */
export type SaleMoment =
  'payable' | 'processing' | 'time_up' | 'refund_owed' | 'unconfirmed' | 'closed';

export function saleMoment(sale: SaleView, serverNow: number): SaleMoment {
  if (sale.refundsOwed.length > 0) return 'refund_owed';
  if (sale.state === 'unconfirmed') return 'unconfirmed';
  if (!isOpenSaleState(sale.state)) return 'closed';
  if (sale.state === 'confirming') return 'processing';
  if (sale.expiresAt !== null && serverNow >= sale.expiresAt) return 'time_up';
  return 'payable';
}

/** What the customer is owed back: every extra transfer not yet noted as refunded. */
export function refundOwedKobo(sale: Pick<SaleView, 'refundsOwed'>): number {
  return sale.refundsOwed.reduce((sum, refund) => sum + refund.amountKobo, 0);
}

/** The till's words while the customer's bank holds the transfer. */
export const PROCESSING_WORDS = "Received by the customer's bank: don't pay again";
/** The customer display's words for the same moment, said to the customer. */
export const PROCESSING_DISPLAY_WORDS = "Your bank has received it: please don't pay again";
/** Said under "Expired" while main makes its last check with the provider. */
export const TIME_UP_WORDS = 'Checking for a last-moment transfer…';
/** The customer display while a refund is owed: never "Paid, thank you". */
export const PAID_TWICE_DISPLAY_WORDS = 'Payment received twice: please see the cashier';

/** Said under "Unconfirmed" on the till: why, and what happens next. */
export const UNCONFIRMED_WORDS =
  "The provider can't be reached: this payment will be confirmed when it is back";
/** The customer display's words for an outage sale. */
export const UNCONFIRMED_DISPLAY_WORDS =
  'Send this exact amount, kobo included. The shop confirms it when its connection is back.';
/** The one press that takes a sale that could not start on the shop's standing account. */
export const TAKE_ON_STANDING_LABEL = "Take it on the shop's standing account";
/** The hand-over policy's press, and the wait policy's. */
export const GOODS_GIVEN_LABEL = "Goods given on the customer's screen";
export const KEEP_WAITING_LABEL = 'Keep waiting';
