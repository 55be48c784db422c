import { formatNaira } from '#shared/money';
import { PAID_TWICE } from '#shared/sales';
import { getAccount } from '#main/store/accounts-repo';
import { listInflowsForReference, type InflowRow } from '#main/store/inflows-repo';
import { getSale, getSaleByReference, type SaleRow } from '#main/store/sales-repo';
import { raiseEngineAlert, showSaleAgain, type EngineContext } from './engine-context';
import { correctPaymentOrder, paidTwiceKey } from './payment-order';

/** The alert kind (and the report's exception kind) of a large payment into a standing account. */
export const STANDING_ABOVE_LIMIT = 'standing_above_limit';

/** Every flag a stored report of a transfer may raise: paid twice, or above the owner's limit. */
export function flagUnexpectedPayment(ctx: EngineContext, row: InflowRow): void {
  const sale = row.status === 'success' ? saleOfInflow(ctx, row) : undefined;
  const moved = sale ? correctPaymentOrder(ctx, sale, row) : undefined;
  if (moved) flagExtraPayment(ctx, moved.replaced, moved.replaced.sessionId);
  flagExtraPayment(ctx, row);
  flagStandingPaymentAboveLimit(ctx, row);
}

/**
 * A success beyond the one that paid its sale: the customer paid twice (a provider may accept
 * a second exact transfer into a paid one-off account), or paid into the sale's account after
 * it closed. The money is the shop's now and the customer is owed a refund: a person must know
 * at once, whichever way the till heard of it (callback, status check, lookup or sync).
 */
export function flagExtraPayment(
  ctx: EngineContext,
  row: InflowRow,
  /** The transfer the till had taken for the payment before an earlier one turned up. */
  wasTakenFor?: string,
): void {
  if (row.status !== 'success') return;
  const sale = saleOfInflow(ctx, row);
  if (!sale || sale.paidSessionId === null || sale.paidSessionId === row.sessionId) return;
  const raised = raiseEngineAlert(ctx, {
    level: 'error',
    kind: PAID_TWICE,
    saleId: sale.id,
    sessionId: row.sessionId,
    message: paidTwiceMessage(sale, row, wasTakenFor !== undefined),
    dedupeKey: paidTwiceKey(row.sessionId),
  });
  // The sale's view now owes a refund: the till and the customer display follow it.
  if (raised) ctx.publisher.publish(() => showSaleAgain(ctx, sale.id));
}

/** The sale an inflow is linked to, or whose reference it carries. */
export function saleOfInflow(ctx: EngineContext, row: InflowRow): SaleRow | undefined {
  if (row.saleId !== null) return getSale(ctx.db, row.saleId);
  return row.externalReference === null
    ? undefined
    : getSaleByReference(ctx.db, row.externalReference);
}

/**
 * Once a sale is marked paid, every other success already stored for its reference is a payment
 * beyond the first (the lookup may have brought two at once).
 */
export function flagExtraPaymentsOfSale(ctx: EngineContext, sale: SaleRow): void {
  if (sale.paidSessionId === null) return;
  for (const row of listInflowsForReference(ctx.db, sale.reference)) flagExtraPayment(ctx, row);
}

export function paidTwiceMessage(
  sale: Pick<SaleRow, 'id' | 'amountKobo' | 'paidSessionId'>,
  row: Pick<InflowRow, 'amountKobo' | 'sessionId'>,
  /** The till had first taken this transfer for the payment; the provider dates the other earlier. */
  reattributed = false,
): string {
  const first = `CUSTOMER PAID TWICE: sale #${sale.id} (${formatNaira(sale.amountKobo)}) was already paid by transfer ${sale.paidSessionId ?? 'unknown'}, and the provider also accepted ${formatNaira(row.amountKobo)} into its account (session ${row.sessionId}).`;
  if (!reattributed) {
    return `${first} The shop holds that money: refund the customer ${formatNaira(row.amountKobo)}.`;
  }
  return `${first} The till first took session ${row.sessionId} for the payment, but the provider dates ${sale.paidSessionId ?? 'the other'} earlier. Refund the customer ${formatNaira(row.amountKobo)} once: if you already refunded the other transfer, nothing more is owed.`;
}

/**
 * A standing (static-flex counter) account takes any amount by design, so a slip of the finger
 * (₦500,000 for ₦5,000) is accepted too. Above the owner's limit (Settings,
 * standingAccounts.flagAboveKobo; 0: off) a person checks it with the customer, whichever way
 * the till heard of it.
 */
function flagStandingPaymentAboveLimit(ctx: EngineContext, row: InflowRow): void {
  const limitKobo = ctx.deps.settings().standingFlagAboveKobo;
  if (row.status !== 'success' || limitKobo <= 0 || row.amountKobo <= limitKobo) return;
  const account = row.accountId === null ? undefined : getAccount(ctx.db, row.accountId);
  if (account?.purpose !== 'counter' || account.type !== 'static-flex') return;
  raiseEngineAlert(ctx, {
    level: 'warning',
    kind: STANDING_ABOVE_LIMIT,
    saleId: null,
    sessionId: row.sessionId,
    message: `PAYMENT ABOVE ${formatNaira(limitKobo)} INTO A STANDING ACCOUNT: ${formatNaira(row.amountKobo)} arrived in standing account ${account.accountNumber ?? account.reference} (session ${row.sessionId}). Check with the customer that this is the amount they meant to send.`,
    dedupeKey: `${STANDING_ABOVE_LIMIT}:${row.sessionId}`,
  });
}
