/**
 * The owner's one press on a "Needs a person" payment: it pays the outage sale they chose. The
 * till never made that choice itself (outage-matching.ts); the person who did is recorded on
 * the sale's change, and the alert closes with their name.
 */
import { AppError } from '#shared/errors';
import { getAccount } from '#main/store/accounts-repo';
import { closeAlertByKey } from '#main/store/alerts-repo';
import { getInflowBySession } from '#main/store/inflows-repo';
import { getSale, type SaleRow } from '#main/store/sales-repo';
import { publishClosedAlerts, type EngineContext } from './engine-context';
import { SaleError } from './engine-types';
import {
  ASSIGNED_AFTER_OUTAGE,
  isOutageAccount,
  needsPersonKey,
  payOutageSale,
} from './outage-matching';

export interface OutageAssignment {
  readonly sessionId: string;
  readonly saleId: number;
}

/** Pays the chosen outage sale with the payment; refuses anything the till could not account for. */
export function assignOutagePayment(
  ctx: EngineContext,
  input: OutageAssignment,
  by: string,
): SaleRow {
  return ctx.publisher.atomically(() => {
    const row = getInflowBySession(ctx.db, input.sessionId);
    const account = row?.accountId == null ? undefined : getAccount(ctx.db, row.accountId);
    if (!row || row.status !== 'success' || !isOutageAccount(account)) {
      throw new AppError(
        'PAYMENT_NOT_ASSIGNABLE',
        'That payment is not money into the shop\u2019s standing account after an outage.',
        { field: 'sessionId' },
      );
    }
    if (row.saleId !== null) {
      throw new AppError(
        'PAYMENT_NOT_ASSIGNABLE',
        `That payment already went to sale #${row.saleId}.`,
        { field: 'sessionId' },
      );
    }
    const sale = getSale(ctx.db, input.saleId);
    if (!sale) throw new SaleError('SALE_NOT_FOUND', `Sale ${input.saleId} does not exist.`);
    if (sale.amountDueKobo === null || sale.state !== 'unconfirmed') {
      throw new AppError(
        'PAYMENT_NOT_ASSIGNABLE',
        `Sale #${sale.id} is not an outage sale still waiting for its money.`,
        { field: 'saleId' },
      );
    }
    payOutageSale(ctx, sale, row, ASSIGNED_AFTER_OUTAGE, { assignedBy: by });
    const closed = closeAlertByKey(
      ctx.db,
      needsPersonKey(row.sessionId),
      `assigned to sale #${sale.id} by ${by}`,
      ctx.scheduler.now(),
    );
    publishClosedAlerts(ctx, closed ? [closed] : []);
    return getSale(ctx.db, sale.id) ?? sale;
  });
}
