import { formatNaira } from '#shared/money';
import { listInflowsForReference, type InflowRow } from '#main/store/inflows-repo';
import { getSale, getSaleByReference, type SaleRow } from '#main/store/sales-repo';
import { raiseEngineAlert, type EngineContext } from './engine-context';

/** The alert kind (and the report's exception kind) of a payment beyond the one that paid a sale. */
export const PAID_TWICE = 'paid_twice';

/**
 * A success beyond the one that paid its sale: the customer paid twice (a provider may accept
 * a second exact transfer into a paid one-off account), or paid into the sale's account after
 * it closed. The money is the shop's now and the customer is owed a refund: a person must know
 * at once, whichever way the till heard of it (callback, status check, lookup or sync).
 */
export function flagExtraPayment(ctx: EngineContext, row: InflowRow): void {
  if (row.status !== 'success') return;
  const sale = saleOfInflow(ctx, row);
  if (!sale || sale.paidSessionId === null || sale.paidSessionId === row.sessionId) return;
  raiseEngineAlert(ctx, {
    level: 'error',
    kind: PAID_TWICE,
    saleId: sale.id,
    sessionId: row.sessionId,
    message: paidTwiceMessage(sale, row),
    dedupeKey: `${PAID_TWICE}:${row.sessionId}`,
  });
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
): string {
  return `CUSTOMER PAID TWICE: sale #${sale.id} (${formatNaira(sale.amountKobo)}) was already paid by transfer ${sale.paidSessionId ?? 'unknown'}, and the provider also accepted ${formatNaira(row.amountKobo)} into its account (session ${row.sessionId}). The shop holds that money: refund the customer ${formatNaira(row.amountKobo)}.`;
}
