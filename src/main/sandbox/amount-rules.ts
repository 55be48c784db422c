import type { AccountRow, StoredAccountStatus } from './sandbox-state';

/**
 * The outcome rules of provider-interface section 3.2, plus the sandbox's choices where the
 * interface is silent (documented in the README):
 * - nonstatic: exactly the expected amount succeeds, once; any other amount fails, and so does
 *   a second payment after a success (`already_paid`).
 * - static: behaves like nonstatic on the amount (a different amount fails, or succeeds under
 *   the personality `static_mismatch: "accept"`), but may be paid any number of times.
 * - static-flex: any positive amount succeeds, any number of times.
 */

export type FailureReason = 'amount_mismatch' | 'already_paid';

export type TransferOutcome =
  | {
      readonly status: 'success';
      /** A static account took an amount other than its own (static_mismatch "accept"). */
      readonly mismatchAccepted?: true;
      /** A paid nonstatic account took the exact amount again (repeat_payments "accept"). */
      readonly repeatAccepted?: true;
    }
  | { readonly status: 'failed'; readonly reason: FailureReason };

export interface AmountRuleOptions {
  readonly staticMismatch: 'reject' | 'accept';
  /** A second exact transfer into a paid nonstatic account (personality `repeat_payments`). */
  readonly repeatPayments?: 'refuse' | 'accept';
}

const TODAYS_RULES: AmountRuleOptions = { staticMismatch: 'reject' };

export type EffectiveAccountStatus = StoredAccountStatus;

export function decideOutcome(
  account: Pick<AccountRow, 'type' | 'amountKobo'>,
  amountKobo: number,
  alreadyPaid: boolean,
  rules: AmountRuleOptions = TODAYS_RULES,
): TransferOutcome {
  switch (account.type) {
    case 'static-flex':
      return { status: 'success' };
    case 'static':
      if (amountKobo === account.amountKobo) return { status: 'success' };
      return rules.staticMismatch === 'accept'
        ? { status: 'success', mismatchAccepted: true }
        : { status: 'failed', reason: 'amount_mismatch' };
    case 'nonstatic':
      if (alreadyPaid) {
        return rules.repeatPayments === 'accept' && amountKobo === account.amountKobo
          ? { status: 'success', repeatAccepted: true }
          : { status: 'failed', reason: 'already_paid' };
      }
      return amountKobo === account.amountKobo
        ? { status: 'success' }
        : { status: 'failed', reason: 'amount_mismatch' };
  }
}

/** Cancelled wins over expired; a nonstatic account expires by the clock at `expiresAtMs`. */
export function effectiveStatus(
  account: Pick<AccountRow, 'status' | 'expiresAtMs'>,
  nowMs: number,
): EffectiveAccountStatus {
  if (account.status !== 'active') return account.status;
  if (account.expiresAtMs !== null && nowMs >= account.expiresAtMs) return 'expired';
  return 'active';
}
