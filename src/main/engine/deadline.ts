import type { SaleState } from '#shared/sales';

/**
 * What one check (the status answer, plus the bounded listing lookup when it ran) says about a
 * sale's money. Only 'failed' and 'nothing' are conclusive enough to close a sale.
 */
export type CheckEvidence =
  /** The sale is paid (or paid late) now. */
  | 'paid'
  /** The sale is no longer open (cancelled, expired...): nothing to decide. */
  | 'closed'
  /** The provider says the transfer failed (a wrong amount), by status or listing. */
  | 'failed'
  /** Not found, and the listing's newest rows hold nothing for the reference either. */
  | 'nothing'
  /** A transfer is still being processed. */
  | 'pending'
  /** An error, a timeout, an unknown status, or "not found" the listing could not back up. */
  | 'unclear';

export interface DeadlineInput {
  readonly evidence: CheckEvidence;
  readonly now: number;
  /** expiresAt + lateGraceMs: how long an unclear sale is kept open. */
  readonly graceEndsAt: number;
}

export type DeadlineDecision =
  /** Paid, or closed some other way: nothing to do. */
  | { readonly kind: 'settled' }
  /** Conclusively unpaid: the sale expires. */
  | { readonly kind: 'expire' }
  /** Not clear yet: the sale stays open (confirming) and the checks go on. */
  | { readonly kind: 'keep-checking' }
  /** Still unclear when the grace period ends: the sale expires, with a warning to staff. */
  | { readonly kind: 'give-up' };

/**
 * The decision after a check made at or past a sale's deadline. A failed, errored or unclear
 * check never expires a sale: a payment that settled in time must end `paid`, and only the
 * provider saying "nothing" (or "failed") is a reason to stop waiting.
 */
export function decideAtDeadline(input: DeadlineInput): DeadlineDecision {
  switch (input.evidence) {
    case 'paid':
    case 'closed':
      return { kind: 'settled' };
    case 'failed':
    case 'nothing':
      return { kind: 'expire' };
    case 'pending':
    case 'unclear':
      return input.now >= input.graceEndsAt ? { kind: 'give-up' } : { kind: 'keep-checking' };
  }
}

/** States from which a confirmed payment makes the sale paid. */
export const PAYABLE_STATES: readonly SaleState[] = [
  'creating',
  'awaiting_payment',
  'confirming',
  'wrong_amount',
];

/**
 * Whether a confirmed payment of the right amount makes the sale `paid` (not `paid_late`). A
 * payment the provider dates at or before the deadline (plus the skew allowance) was made in
 * time even if the till had expired the sale meanwhile; a cashier's cancel stands: money after
 * it is a late payment that staff must act on.
 */
export function paidInTime(input: {
  readonly state: SaleState;
  readonly expiresAt: number | null;
  /** The provider's `date` of the payment (provider time zone rule applied), if any. */
  readonly paymentAt: number | null;
  readonly expiryCheckDelayMs: number;
}): boolean {
  if (PAYABLE_STATES.includes(input.state)) return true;
  if (input.state !== 'expired') return false;
  return (
    input.expiresAt !== null &&
    input.paymentAt !== null &&
    input.paymentAt <= input.expiresAt + input.expiryCheckDelayMs
  );
}
