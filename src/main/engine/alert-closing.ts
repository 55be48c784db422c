/**
 * Alerts close themselves when what they asked for is done: one table, per alert kind, of the
 * changes that resolve it, and the one press that resolves it from where it is shown. The
 * closing runs in the same transaction as the change that resolves the alert (a sale's state
 * change: changeSale; the owner's record of a report case: the exception handlers), and keeps
 * a record of what closed it and when (alerts.closed_by, acknowledged_at).
 */
import { RESOLUTION_WORDS } from '#shared/report-words';
import type { AlertAction, SaleState } from '#shared/sales';
import type { ExceptionKind, ResolutionAction } from '#shared/views';
import {
  closeAlert,
  listOpenAlertsOfSale,
  listOpenAlertsOfSession,
  type AlertRow,
} from '#main/store/alerts-repo';
import type { Db } from '#main/store/database';

interface AlertClosing {
  /** The alert's sale reaching one of these states resolves it. */
  readonly saleStates?: readonly SaleState[];
  /** The owner recording what was done about the report's case of this kind (same sale or transfer). */
  readonly exception?: ExceptionKind;
  /** The press that resolves it where it is shown (besides Acknowledge). */
  readonly action?: AlertAction;
}

/** The sale no longer waits for money: its "still checking" alerts have nothing left to ask. */
const SETTLED: readonly SaleState[] = [
  'paid',
  'paid_late',
  'expired',
  'cancelled',
  'failed_to_create',
];

/** Every kind of alert about a sale or a transfer that something the till records resolves. */
export const ALERT_CLOSING: Readonly<Record<string, AlertClosing>> = {
  /** "No confirmation yet… ask the customer to show the transfer receipt." */
  poll_cap: { saleStates: SETTLED, action: 'check-payment' },
  /** The provider answered a status the till does not know; still checking. */
  unknown_status: { saleStates: SETTLED, action: 'check-payment' },
  /** Marked expired with no clear answer; a payment found later marks it paid. */
  deadline_unresolved: { saleStates: ['paid', 'paid_late'] },
  /** Paid after expiry or cancel: "Gave the goods" / "Refunded" on the sale or the report. */
  paid_late: { exception: 'paid_late', saleStates: ['paid'], action: 'settle-on-sale' },
  /** A second payment: refunded (the report's record) or acknowledged on the sale. */
  paid_twice: { exception: 'paid_twice', action: 'settle-on-sale' },
  /** A sale's payment that the provider no longer reports as successful. */
  payment_reversed: { exception: 'reversed' },
  /** A large payment into a standing account (the shop's: the owner's only). */
  standing_above_limit: { exception: 'standing_above_limit' },
};

/** The press that resolves an alert of this kind, or null when only Acknowledge applies. */
export function alertAction(row: Pick<AlertRow, 'kind' | 'saleId'>): AlertAction | null {
  if (row.saleId === null) return null;
  return ALERT_CLOSING[row.kind]?.action ?? null;
}

const STATE_WORDS: Readonly<Record<SaleState, string>> = {
  creating: 'sale being created',
  failed_to_create: 'sale not started',
  awaiting_payment: 'sale waiting for payment',
  confirming: 'sale being confirmed',
  paid: 'sale paid',
  wrong_amount: 'wrong amount sent',
  expired: 'sale expired',
  cancelled: 'sale cancelled',
  paid_late: 'sale paid late',
  unconfirmed: 'sale waiting for the link to come back',
};

/** Closes the sale's open alerts that its new state resolves; returns those it closed. */
export function closeAlertsForSaleState(
  db: Db,
  saleId: number,
  state: SaleState,
  now: number,
): AlertRow[] {
  return listOpenAlertsOfSale(db, saleId)
    .filter((row) => ALERT_CLOSING[row.kind]?.saleStates?.includes(state) === true)
    .flatMap((row) => closeAlert(db, row.id, STATE_WORDS[state], now) ?? []);
}

/** A report case as its key names it: its kind, and the sale or the transfer it concerns. */
export interface ResolvedCase {
  readonly kind: ExceptionKind;
  readonly saleId: number | null;
  readonly sessionId: string | null;
}

/** Closes the open alerts that the owner's record of a report case resolves. */
export function closeAlertsForResolution(
  db: Db,
  resolved: ResolvedCase,
  action: ResolutionAction,
  by: string,
  now: number,
): AlertRow[] {
  const candidates =
    resolved.saleId !== null
      ? listOpenAlertsOfSale(db, resolved.saleId)
      : resolved.sessionId !== null
        ? listOpenAlertsOfSession(db, resolved.sessionId)
        : [];
  const closedBy = `recorded: ${RESOLUTION_WORDS[action]} by ${by}`;
  return candidates
    .filter((row) => ALERT_CLOSING[row.kind]?.exception === resolved.kind)
    .flatMap((row) => closeAlert(db, row.id, closedBy, now) ?? []);
}
