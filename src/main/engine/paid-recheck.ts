import { listInflowsForReference } from '#main/store/inflows-repo';
import { getSaleOrThrow, type SaleRow } from '#main/store/sales-repo';
import { recordInflow } from './inflow-recording';
import { askStatus } from './status-check';
import type { WatchEnv } from './watch-book';

/**
 * News of money for a sale that is already paid (a callback naming another session id, or none
 * at all): the customer may have paid twice. The status endpoint is asked first (a provider
 * may show the newest success); when it does not show a payment other than the one that paid
 * the sale, the listing's newest rows for the reference are read, fresh. Whatever success is
 * found beyond the first is recorded, which flags it (extra-payments.ts). Bounded: one status
 * request and one shared listing read. Runs in the sale's queue.
 */
export async function recheckPaidSale(env: WatchEnv, saleId: number): Promise<string> {
  const { ctx } = env;
  return ctx.queue.run(saleId, async () => {
    const sale = getSaleOrThrow(ctx.db, saleId);
    if (sale.paidSessionId === null) return 'not-paid';
    const link = { saleId: sale.id, accountId: sale.accountId };
    const askedAt = ctx.scheduler.now();
    const answer = await askStatus(ctx, sale);
    if (answer.kind === 'confirmed') {
      const record = answer.record;
      ctx.publisher.atomically(() =>
        recordInflow(ctx, { ...record, externalReference: sale.reference }, 'poll', link, askedAt),
      );
    }
    if (!hasExtraPayment(env, sale)) {
      const lookup = await env.lookup.find(sale.reference, 0, { fresh: true });
      if (lookup.kind === 'rows') {
        ctx.publisher.atomically(() => {
          for (const row of lookup.rows) recordInflow(ctx, row, 'listing', link, lookup.readAt);
        });
      }
    }
    return hasExtraPayment(env, sale) ? 'paid-twice' : 'already-paid';
  });
}

function hasExtraPayment(env: WatchEnv, sale: SaleRow): boolean {
  return listInflowsForReference(env.ctx.db, sale.reference).some(
    (row) => row.status === 'success' && row.sessionId !== sale.paidSessionId,
  );
}
