import { formatNaira } from '#shared/money';
import { PAID_TWICE } from '#shared/sales';
import { closeAlertByKey } from '#main/store/alerts-repo';
import { getInflowBySession, type InflowRow } from '#main/store/inflows-repo';
import { listSaleEvents, type SaleRow } from '#main/store/sales-repo';
import { paidInTime } from './deadline';
import { changeSale, publishClosedAlerts, type EngineContext } from './engine-context';
import { alertPaidAfterExpiry } from './paid-alerts';

/** The cause of the sale event that moves a sale's payment to an earlier transfer. */
export const PAYMENT_REATTRIBUTED = 'payment-reattributed';

/** The dedupe key of the "paid twice" alert that names one transfer. */
export function paidTwiceKey(sessionId: string): string {
  return `${PAID_TWICE}:${sessionId}`;
}

export interface Reattribution {
  readonly sale: SaleRow;
  /** The transfer that had paid the sale and is now the one beyond the first. */
  readonly replaced: InflowRow;
}

/**
 * Which transfer paid a sale is decided by the money, not by the order the till hears of it:
 * of the exact successes for a sale's reference, the one the provider dates first pays it. A
 * provider's status endpoint may show the newest success, and the listing or a callback may
 * bring an older one later: then the payment moves to the older one, with a sale event that
 * records the correction, and the one that had paid becomes the extra payment to refund. A
 * transfer dated the same second as the one that paid changes nothing (the date cannot tell).
 */
export function correctPaymentOrder(
  ctx: EngineContext,
  sale: SaleRow,
  row: InflowRow,
): Reattribution | undefined {
  if (sale.paidSessionId === null || sale.paidSessionId === row.sessionId) return undefined;
  if (row.status !== 'success' || row.amountKobo !== sale.amountKobo || row.occurredAt === null) {
    return undefined;
  }
  const paying = getInflowBySession(ctx.db, sale.paidSessionId);
  if (!paying?.occurredAt || row.occurredAt >= paying.occurredAt) return undefined;
  const nowInTime = sale.state === 'paid_late' && lateOnlyByExpiry(ctx, sale, row);
  const updated = changeSale(
    ctx,
    sale.id,
    {
      state: nowInTime ? 'paid' : sale.state,
      cause: PAYMENT_REATTRIBUTED,
      reason: nowInTime ? null : sale.reason,
      fields: { paidSessionId: row.sessionId },
      detail: {
        sessionId: row.sessionId,
        providerDate: row.providerDate,
        replacedSessionId: paying.sessionId,
        replacedProviderDate: paying.providerDate,
      },
    },
    ['paid', 'paid_late'],
  );
  if (!updated) return undefined;
  ctx.logger.warn(
    { saleId: sale.id, sessionId: row.sessionId, replaced: paying.sessionId },
    `sale #${sale.id} (${formatNaira(sale.amountKobo)}): an earlier transfer paid it`,
  );
  // The earlier transfer was the extra one while the later one was taken for the payment.
  const closed = closeAlertByKey(
    ctx.db,
    paidTwiceKey(row.sessionId),
    'an earlier transfer paid the sale',
    ctx.scheduler.now(),
  );
  publishClosedAlerts(ctx, closed ? [closed] : []);
  // Now paid in time, its paid-late alert closed with the change (alert-closing.ts).
  if (nowInTime) alertPaidAfterExpiry(ctx, sale, row);
  return { sale: updated, replaced: paying };
}

/**
 * A sale paid late after its expiry (not after a cashier's cancel) whose earlier transfer the
 * provider dates within the deadline rule: that transfer was made in time.
 */
function lateOnlyByExpiry(ctx: EngineContext, sale: SaleRow, row: InflowRow): boolean {
  if (listSaleEvents(ctx.db, sale.id).some((event) => event.toState === 'cancelled')) return false;
  return paidInTime({
    state: 'expired',
    expiresAt: sale.expiresAt,
    paymentAt: row.occurredAt,
    expiryCheckDelayMs: ctx.policy.expiryCheckDelayMs,
  });
}
