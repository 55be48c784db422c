import type { ExceptionResolution } from './views';

/** The life of a sale, as main stores it and the renderer shows it. */
export const SALE_STATES = [
  'creating',
  'failed_to_create',
  'awaiting_payment',
  'confirming',
  'paid',
  'wrong_amount',
  'expired',
  'cancelled',
  'paid_late',
  'unconfirmed',
] as const;
export type SaleState = (typeof SALE_STATES)[number];

/**
 * States in which the sale still waits for its money. 'wrong_amount' is one of them: the
 * provider did not accept the transfer, and the customer may still send the exact amount.
 */
export const OPEN_SALE_STATES: readonly SaleState[] = [
  'creating',
  'awaiting_payment',
  'confirming',
  'wrong_amount',
];

export function isOpenSaleState(state: SaleState): boolean {
  return OPEN_SALE_STATES.includes(state);
}

/**
 * What a late payment found its sale in: the cashier had cancelled it, it had expired, or it
 * never started (the account's creation failed as far as the till knew).
 */
export type PaidAfter = 'cancelled' | 'expired' | 'failed_to_create';

/**
 * How payment news reaches this till while a sale runs: the callback health at the time.
 * 'live': callbacks proven recently (a self-test or a real callback); 'unproven': a route
 * exists but nothing proved it lately; 'not_reaching': a payment was found without its
 * callback, or the self-test failed; 'off': no callback route (polling only). Whatever the
 * mode, the till checks every open sale with the provider by itself.
 */
export type CallbackMode = 'live' | 'unproven' | 'not_reaching' | 'off';

export interface SaleView {
  readonly id: number;
  readonly state: SaleState;
  /** Why the sale is in this state, in words for the cashier (e.g. the create error). */
  readonly reason: string | null;
  readonly amountKobo: number;
  /**
   * The exact kobo the customer is asked to send: the amount, except on an outage sale
   * (state 'unconfirmed' until matched), where a kobo tag under ₦1 tells it apart from the
   * other open outage sales on the same standing account.
   */
  readonly amountDueKobo: number;
  readonly note: string | null;
  readonly cashier: string | null;
  readonly tillId: string | null;
  readonly reference: string;
  readonly accountNumber: string | null;
  readonly accountName: string | null;
  readonly bank: string | null;
  readonly expiresAt: number | null;
  readonly paidAt: number | null;
  readonly paidSessionId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly callbackMode: CallbackMode;
  /** A paid_late sale: what the payment found it in; null in every other state. */
  readonly paidAfter: PaidAfter | null;
  /**
   * A paid_late sale: what was done about it (the report's resolution of the same case, one
   * record); null while nobody has recorded it, and in every other state.
   */
  readonly lateResolution: ExceptionResolution | null;
  /**
   * A sale whose account could not be created: true when "Try again" can help (the network,
   * the provider's own trouble), false when a setting must be fixed first (then the reason
   * says which). False in every other state.
   */
  readonly canRetry: boolean;
  /**
   * A failed_to_create sale whose request got no answer (no connection, or none in time): the
   * provider could not be reached, so the sale may be taken on the shop's standing account
   * instead (`createOutageSale`). False in every other state.
   */
  readonly offlineCause: boolean;
  /** An outage sale's shop policy (Settings); null on every other sale. */
  readonly outagePolicy: OutagePolicy | null;
  /** What the cashier last recorded on an outage sale; null until then and on other sales. */
  readonly outageAction: OutageAction | null;
  /**
   * Money beyond the payment (the customer paid twice) that nobody has yet noted as refunded:
   * one entry per extra transfer, from its open "paid twice" alert. Empty in the usual case.
   */
  readonly refundsOwed: readonly RefundOwed[];
}

/**
 * What a shop does while an outage sale waits for its money to be seen: 'wait' (the goods stay
 * until it is confirmed) or 'hand_over' (the goods go when the customer's screen shows the
 * transfer, and the cashier records that).
 */
export const OUTAGE_POLICIES = ['wait', 'hand_over'] as const;
export type OutagePolicy = (typeof OUTAGE_POLICIES)[number];

/** What a cashier recorded on an outage sale. */
export const OUTAGE_ACTIONS = ['goods_given', 'keep_waiting'] as const;
export type OutageAction = (typeof OUTAGE_ACTIONS)[number];

/** The alert kind (and the report's exception kind) of a payment beyond the one that paid a sale. */
export const PAID_TWICE = 'paid_twice';

/** One extra transfer into a paid sale, owed back to the customer until a cashier notes it. */
export interface RefundOwed {
  /** The "paid twice" alert that records it: acknowledging it notes the refund. */
  readonly alertId: number;
  readonly amountKobo: number;
  /** The extra transfer (30 digits), for the details only. */
  readonly sessionId: string | null;
  /** The alert's full words (both transfers' session ids), for the details only. */
  readonly details: string;
}

export interface InflowView {
  readonly sessionId: string;
  readonly externalReference: string | null;
  readonly amountKobo: number;
  readonly status: 'success' | 'failed' | 'pending' | 'unknown';
  readonly occurredAt: number | null;
  readonly source: 'callback' | 'poll' | 'listing';
  readonly saleId: number | null;
  readonly firstSeenAt: number;
}

export interface AlertView {
  readonly id: number;
  readonly createdAt: number;
  readonly level: 'info' | 'warning' | 'error';
  readonly kind: string;
  readonly saleId: number | null;
  /** The transfer the alert is about, when it is about one (30 digits). */
  readonly sessionId: string | null;
  readonly message: string;
  /** When it closed (acknowledged, or closed by what resolved it); null while open. */
  readonly acknowledgedAt: number | null;
  /** What closed it ("acknowledged by Ada", "sale paid", "recorded: Goods given by owner"). */
  readonly closedBy: string | null;
  /** The one press that resolves it, besides Acknowledge (main's table of alert kinds). */
  readonly action: AlertAction | null;
  /**
   * A "Needs a person" alert about a payment into the outage account: the outage sales still
   * waiting that it could be for (the owner assigns it to one); absent on every other alert.
   */
  readonly candidates?: readonly OutageCandidate[];
}

/** The alert kind of a payment the till will not assign by itself (shown as "Needs a person"). */
export const NEEDS_PERSON = 'needs_person';

/** An outage sale still waiting that a payment needing a person could belong to. */
export interface OutageCandidate {
  readonly saleId: number;
  readonly amountKobo: number;
  /** The exact amount the customer was asked to send. */
  readonly amountDueKobo: number;
  readonly createdAt: number;
  readonly cashier: string | null;
}

/**
 * What resolves an alert from where it is shown: 'check-payment' asks the provider about its
 * open sale now ("Customer says they paid"); 'settle-on-sale' opens its sale, where the money
 * is settled with the customer (give the goods or refund; refund the second payment).
 */
export type AlertAction = 'check-payment' | 'settle-on-sale';
