import { formatNaira } from '#shared/money';
import { IF_MONEY_LEFT_THEIR_ACCOUNT, wrongAmountWords } from '#shared/report-words';
import { isOpenSaleState, type SaleState } from '#shared/sales';
import type { PaymentCheck } from '#main/provider/account-endpoints';
import type { PaymentStatusRecord, TransactionRecord } from '#main/provider/schemas';
import type { InflowSource } from '#main/store/inflows-repo';
import { getSaleOrThrow, type SaleRow } from '#main/store/sales-repo';
import { PAYABLE_STATES, paidInTime, type CheckEvidence } from './deadline';
import { changeSale, raiseEngineAlert, type EngineContext } from './engine-context';
import type { CheckTrigger } from './engine-types';
import { flagExtraPaymentsOfSale } from './extra-payments';
import { alertPaidAfterExpiry } from './paid-alerts';
import { recordInflow } from './inflow-recording';
import type { LookupResult } from './listing-lookup';

/** The status endpoint's answer, or the fact that there was none (error, timeout). */
export type StatusAnswer = PaymentCheck | { readonly kind: 'error' };

/** What one check found: the status answer and, when it ran, the bounded listing lookup. */
export interface CheckFindings {
  readonly answer: StatusAnswer;
  /** When the status request was sent: the answer's observation time. */
  readonly askedAt: number;
  readonly lookup: LookupResult | null;
}

export interface AppliedCheck {
  readonly sale: SaleRow;
  readonly evidence: CheckEvidence;
  /** The sale has just learned of a transfer in progress: the backoff should start. */
  readonly newlyPending: boolean;
}

const PENDING_REASON = 'The bank is still processing the transfer.';
/** Where a payment makes the sale paid_late: closed by the till, the cashier or a failure. */
const LATE_STATES: readonly SaleState[] = ['expired', 'cancelled', 'failed_to_create'];

/** A status answer that says nothing about a failed transfer on some providers (404 or 409). */
export function isInconclusive(answer: StatusAnswer): boolean {
  return answer.kind === 'not_found' || (answer.kind === 'pending' && !answer.record);
}

/**
 * The shared words for a wrong amount (till, report), then what the customer must do: send the
 * exact amount, and ask their bank if money left their account (the interface says only that
 * the payment is rejected, not where the money goes).
 */
export function wrongAmountReason(receivedKobo: number, dueKobo: number): string {
  return `${wrongAmountWords(receivedKobo)}. The customer must send exactly ${formatNaira(dueKobo)}. ${IF_MONEY_LEFT_THEIR_ACCOUNT}`;
}

/** Applies a check's findings to the sale, in one transaction with its inflows and alerts. */
export function applyFindings(
  ctx: EngineContext,
  saleId: number,
  findings: CheckFindings,
  trigger: CheckTrigger,
): AppliedCheck {
  return ctx.publisher.atomically(() => {
    const sale = getSaleOrThrow(ctx.db, saleId);
    const source: InflowSource = trigger === 'callback' ? 'callback' : 'poll';
    const { answer, askedAt } = findings;
    const link = { saleId: sale.id, accountId: sale.accountId };
    let after = sale;
    switch (answer.kind) {
      case 'confirmed':
        after = applyConfirmed(ctx, sale, answer.record, source, askedAt, trigger !== 'callback');
        break;
      case 'failed':
        recordInflow(ctx, asReport(answer.record), source, link, askedAt);
        after = markWrongAmount(ctx, sale, answer.record, `${trigger}-status-failed`);
        break;
      case 'unknown':
        raiseEngineAlert(ctx, {
          level: 'warning',
          kind: 'unknown_status',
          saleId: sale.id,
          message: `The provider answered an unknown status "${answer.record.rawStatus}" for sale #${sale.id}. Still checking.`,
          dedupeKey: `unknown_status:${sale.id}:${answer.record.rawStatus}`,
        });
        break;
      case 'pending':
        if (answer.record) {
          recordInflow(ctx, asReport(answer.record), source, link, askedAt);
          after = markPending(ctx, sale, `${trigger}-status-pending`);
          break;
        }
        after = applyListing(ctx, sale, findings, trigger);
        break;
      case 'not_found':
        after = applyListing(ctx, sale, findings, trigger);
        break;
      case 'error':
        break;
    }
    const newlyPending = after.state === 'confirming' && sale.state !== 'confirming';
    return { sale: after, evidence: evidenceOf(after, findings), newlyPending };
  });
}

/**
 * A "not found" or a bare 409 may hide a failed transfer: the listing's rows for the
 * reference, when they were looked up, decide. Without them a 409 keeps its documented
 * meaning (pending), except on a wrong-amount sale, where it may be the failed one again.
 */
function applyListing(
  ctx: EngineContext,
  sale: SaleRow,
  findings: CheckFindings,
  trigger: CheckTrigger,
): SaleRow {
  const { lookup } = findings;
  if (lookup?.kind === 'rows') {
    const { rows, readAt } = lookup;
    for (const row of rows) {
      recordInflow(ctx, row, 'listing', { saleId: sale.id, accountId: sale.accountId }, readAt);
    }
    const success =
      rows.find((row) => row.status === 'success' && row.amountKobo === sale.amountKobo) ??
      rows.find((row) => row.status === 'success');
    if (success) return applyConfirmed(ctx, sale, asRecord(success), 'listing', readAt, true);
    if (rows.some((row) => row.status === 'pending')) {
      return markPending(ctx, sale, `${trigger}-listing-pending`);
    }
    const failed = rows
      .filter((row) => row.status === 'failed')
      .sort((a, b) => a.dateMs - b.dateMs)
      .at(-1);
    if (failed) return markWrongAmount(ctx, sale, failed, `${trigger}-listing-failed`);
  }
  if (findings.answer.kind === 'pending' && sale.state === 'awaiting_payment') {
    return markPending(ctx, sale, `${trigger}-status-pending`);
  }
  return sale;
}

function evidenceOf(after: SaleRow, findings: CheckFindings): CheckEvidence {
  if (after.paidSessionId !== null) return 'paid';
  if (!isOpenSaleState(after.state)) return 'closed';
  const { answer, lookup } = findings;
  switch (answer.kind) {
    case 'failed':
      return 'failed';
    case 'pending':
      if (answer.record) return 'pending';
      break;
    case 'not_found':
      break;
    default:
      return 'unclear';
  }
  if (lookup?.kind !== 'rows') return answer.kind === 'pending' ? 'pending' : 'unclear';
  if (lookup.rows.some((row) => row.status === 'pending')) return 'pending';
  // A success that did not pay the sale (another amount) needs a person, not an expiry.
  if (lookup.rows.some((row) => row.status !== 'failed')) return 'unclear';
  if (lookup.rows.length > 0) return 'failed';
  return answer.kind === 'pending' ? 'pending' : 'nothing';
}

function markPending(ctx: EngineContext, sale: SaleRow, cause: string): SaleRow {
  if (sale.state !== 'awaiting_payment' && sale.state !== 'wrong_amount') return sale;
  return (
    changeSale(ctx, sale.id, { state: 'confirming', cause, reason: PENDING_REASON }, [
      'awaiting_payment',
      'wrong_amount',
    ]) ?? sale
  );
}

function markWrongAmount(
  ctx: EngineContext,
  sale: SaleRow,
  transfer: { readonly amountKobo: number; readonly sessionId: string },
  cause: string,
): SaleRow {
  const payable: readonly SaleState[] = ['awaiting_payment', 'confirming', 'wrong_amount'];
  if (!payable.includes(sale.state)) return sale;
  const reason = wrongAmountReason(transfer.amountKobo, sale.amountKobo);
  if (sale.state === 'wrong_amount' && sale.reason === reason) return sale;
  return (
    changeSale(
      ctx,
      sale.id,
      { state: 'wrong_amount', cause, reason, detail: { sessionId: transfer.sessionId } },
      payable,
    ) ?? sale
  );
}

/**
 * A success the provider confirmed: the sale is paid once, with the exact amount only. Paid
 * or paid late follows the deadline rule (paidInTime); a check other than a callback that
 * finds the money tells the callback-health monitor, which then waits for the callback.
 */
export function applyConfirmed(
  ctx: EngineContext,
  sale: SaleRow,
  record: PaymentStatusRecord,
  source: InflowSource,
  observedAt: number,
  /** Found by a look of ours at the provider (a check, the listing lookup, the sync), not a callback. */
  foundByCheck: boolean,
): SaleRow {
  const { row } = recordInflow(
    ctx,
    asReport(record),
    source,
    { saleId: sale.id, accountId: sale.accountId },
    observedAt,
  );
  if (sale.paidSessionId !== null || row.status !== 'success') return sale;
  if (record.amountKobo !== sale.amountKobo) {
    // A nonstatic account only accepts the exact amount: a success with another amount is an
    // anomaly that a person must look at. Never mark the sale paid.
    raiseEngineAlert(ctx, {
      level: 'error',
      kind: 'amount_mismatch',
      saleId: sale.id,
      sessionId: record.sessionId,
      message: `Sale #${sale.id}: the provider confirmed ${formatNaira(record.amountKobo)} but the sale is for ${formatNaira(sale.amountKobo)}. Not marked paid; check with the provider.`,
      dedupeKey: `amount_mismatch:${record.sessionId}`,
    });
    return sale;
  }
  const now = ctx.scheduler.now();
  const paid = { paidSessionId: row.sessionId, paidAt: now };
  const detail = { sessionId: record.sessionId, providerDate: record.date };
  const inTime = paidInTime({
    state: sale.state,
    expiresAt: sale.expiresAt,
    paymentAt: record.dateMs,
    expiryCheckDelayMs: ctx.policy.expiryCheckDelayMs,
  });
  if (inTime) {
    const wasExpired = sale.state === 'expired';
    const updated = changeSale(
      ctx,
      sale.id,
      {
        state: 'paid',
        cause: wasExpired ? `${source}-confirmed-in-time-after-expiry` : `${source}-confirmed`,
        reason: null,
        fields: paid,
        detail,
      },
      [...PAYABLE_STATES, 'expired'],
    );
    if (updated) flagExtraPaymentsOfSale(ctx, updated);
    if (updated && wasExpired) {
      alertPaidAfterExpiry(ctx, sale, { sessionId: record.sessionId, providerDate: record.date });
    }
    if (updated && !wasExpired && foundByCheck) {
      const health = ctx.deps.callbackHealth;
      const found = {
        saleId: sale.id,
        reference: sale.reference,
        sessionId: record.sessionId,
        settledAt: record.dateMs,
        foundAt: now,
      };
      ctx.publisher.publish(() => health.paymentFoundByCheck(found));
    }
    return updated ?? sale;
  }
  if (!LATE_STATES.includes(sale.state)) return sale;
  const before = sale.state;
  const updated = changeSale(
    ctx,
    sale.id,
    {
      state: 'paid_late',
      cause: `${source}-confirmed-after-${before}`,
      reason: `Paid after the sale was ${before === 'failed_to_create' ? 'abandoned' : before}.`,
      fields: paid,
      detail,
    },
    LATE_STATES,
  );
  if (updated) flagExtraPaymentsOfSale(ctx, updated);
  raiseEngineAlert(ctx, {
    level: 'error',
    kind: 'paid_late',
    saleId: sale.id,
    sessionId: record.sessionId,
    message: `LATE PAYMENT: sale #${sale.id} (${formatNaira(sale.amountKobo)}) was paid after it was ${before}. The money arrived: give the goods or refund the customer.`,
    dedupeKey: `paid_late:${sale.id}`,
  });
  return updated ?? sale;
}

function asReport(record: PaymentStatusRecord) {
  return { ...record, externalReference: record.reference };
}

export function asRecord(row: TransactionRecord): PaymentStatusRecord {
  return { ...row, reference: row.externalReference };
}
