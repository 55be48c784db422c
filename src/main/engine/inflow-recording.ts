import { formatNaira } from '#shared/money';
import type { TransactionRecord } from '#main/provider/schemas';
import { getAccount } from '#main/store/accounts-repo';
import {
  getInflowBySession,
  type InflowRow,
  type InflowSource,
  type InflowStatus,
} from '#main/store/inflows-repo';
import { upsertInflow } from './inflow-status';
import { raiseEngineAlert, type EngineContext } from './engine-context';
import { flagUnexpectedPayment, saleOfInflow } from './extra-payments';

export type InflowReport = Pick<
  TransactionRecord,
  'sessionId' | 'amountKobo' | 'status' | 'date' | 'dateMs'
> & { readonly externalReference: string | null };

export interface InflowLink {
  readonly saleId?: number | null;
  readonly accountId?: number | null;
}

/** What the sync already stored for a listed row (it calls the engine after its own upsert). */
export interface ListedChange {
  readonly inserted: boolean;
  readonly previousStatus: InflowStatus | null;
}

export interface RecordedInflow {
  readonly row: InflowRow;
  /** The status before this report (null for a new row). */
  readonly previousStatus: InflowStatus | null;
}

/**
 * Stores one provider report of a transfer (once per session_id) and raises what a person must
 * see: two amounts for one transfer, a settled status that changed after the fact, a success
 * beyond the one that paid its sale (the customer paid twice), or one above the owner's limit
 * into a standing account. The
 * sale's own change (paid, wrong amount...) is the caller's.
 */
export function recordInflow(
  ctx: EngineContext,
  report: InflowReport,
  source: InflowSource,
  link: InflowLink,
  observedAt: number = ctx.scheduler.now(),
): RecordedInflow {
  const result = upsertInflow(
    ctx.db,
    {
      sessionId: report.sessionId,
      externalReference: report.externalReference,
      amountKobo: report.amountKobo,
      status: report.status,
      providerDate: report.date,
      occurredAt: report.dateMs,
      saleId: link.saleId ?? null,
      accountId: link.accountId ?? null,
    },
    source,
    ctx.scheduler.now(),
    observedAt,
  );
  if (result.amountConflict) alertAmountConflict(ctx, result.row);
  if (result.inserted || result.statusChanged) {
    ctx.publisher.publish(() => ctx.events.inflowRecorded(result.row));
  }
  if (result.previousStatus !== null && result.previousStatus !== result.row.status) {
    alertStatusChange(ctx, result.row, result.previousStatus);
  }
  flagUnexpectedPayment(ctx, result.row);
  return { row: result.row, previousStatus: result.previousStatus };
}

/**
 * A listing row the sync has stored already (with the page's observation time, which a report
 * made since may have overtaken): only the alerts are left to raise, from what the sync saw.
 */
export function takeListedInflow(
  ctx: EngineContext,
  tx: TransactionRecord,
  link: InflowLink,
  listed: ListedChange,
): RecordedInflow {
  const row = getInflowBySession(ctx.db, tx.sessionId);
  if (!row) return recordInflow(ctx, tx, 'listing', link);
  if (row.amountKobo !== tx.amountKobo) alertAmountConflict(ctx, row);
  const before = listed.inserted ? null : listed.previousStatus;
  if (before !== null && before !== row.status) alertStatusChange(ctx, row, before);
  flagUnexpectedPayment(ctx, row);
  return { row, previousStatus: before };
}

function alertAmountConflict(ctx: EngineContext, row: InflowRow): void {
  raiseEngineAlert(ctx, {
    level: 'error',
    kind: 'amount_conflict',
    sessionId: row.sessionId,
    message: `The provider reported two different amounts for transfer ${row.sessionId}; the first (${formatNaira(row.amountKobo)}) is kept. Check it with the provider.`,
    dedupeKey: `amount_conflict:${row.sessionId}`,
  });
}

/**
 * A settled status that changes after the fact. Pending or unknown becoming settled is the
 * normal course of a transfer and says nothing new.
 */
function alertStatusChange(ctx: EngineContext, row: InflowRow, before: InflowStatus): void {
  if (before === 'pending' || before === 'unknown') return;
  const sale = saleOfInflow(ctx, row);
  const transfer = `transfer ${row.sessionId} (${formatNaira(row.amountKobo)})`;
  const dedupeKey = `status_change:${row.sessionId}:${before}:${row.status}`;
  if (sale && sale.paidSessionId === row.sessionId && before === 'success') {
    raiseEngineAlert(ctx, {
      level: 'error',
      kind: 'payment_reversed',
      saleId: sale.id,
      sessionId: row.sessionId,
      message: `PAYMENT REVERSED: sale #${sale.id} (${formatNaira(sale.amountKobo)}) was paid by ${transfer}, which the provider now reports as ${row.status}. The sale stays paid; check with the provider before you refund or give more goods.`,
      dedupeKey,
    });
    return;
  }
  const account = row.accountId === null ? undefined : getAccount(ctx.db, row.accountId);
  // The listing is merchant-wide: another till's transfer (or money no till made) is that till's
  // business or the report's, not an alert at this counter.
  if (!sale && !account) return;
  const owner = sale
    ? `Sale #${sale.id} (${formatNaira(sale.amountKobo)})`
    : `Standing account ${account?.accountNumber ?? account?.reference ?? 'unknown'}`;
  raiseEngineAlert(ctx, {
    level: 'warning',
    kind: 'inflow_status_changed',
    saleId: sale?.id ?? null,
    sessionId: row.sessionId,
    message: `${owner}: the provider now reports ${transfer} as ${row.status} (it was ${before}).`,
    dedupeKey,
  });
}
