import { formatNaira } from '#shared/money';
import type { SaleRow } from '#main/store/sales-repo';
import { raiseEngineAlert, type EngineContext } from './engine-context';

/** A sale the till had shown as expired turned out paid in time: the customer may still be owed goods. */
export function alertPaidAfterExpiry(
  ctx: EngineContext,
  sale: Pick<SaleRow, 'id' | 'amountKobo'>,
  payment: { readonly sessionId: string; readonly providerDate: string | null },
): void {
  raiseEngineAlert(ctx, {
    level: 'warning',
    kind: 'paid_after_expiry',
    saleId: sale.id,
    sessionId: payment.sessionId,
    message: `Sale #${sale.id} (${formatNaira(sale.amountKobo)}) was shown as expired, but the provider dates its payment ${payment.providerDate ?? 'unknown'}, before the deadline: it is now paid. Give the goods, or call the customer back.`,
    dedupeKey: `paid_after_expiry:${sale.id}`,
  });
}
