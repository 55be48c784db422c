import {
  OUTAGE_ACTIONS,
  PAID_TWICE,
  type PaidAfter,
  type RefundOwed,
  type SaleState,
  type SaleView,
} from '#shared/sales';
import { paidLateKey } from '#shared/views';
import type { Logger } from '#main/logging/logger';
import { getAccount } from '#main/store/accounts-repo';
import {
  acknowledgeAlert,
  getAlert,
  listOpenAlertsOfSale,
  raiseAlert,
  type AlertRow,
  type NewAlert,
} from '#main/store/alerts-repo';
import { closeAlertsForSaleState } from './alert-closing';
import type { Db } from '#main/store/database';
import { currentEntry, entryResolution } from '#main/store/exception-resolutions-repo';
import { getInflowBySession } from '#main/store/inflows-repo';
import {
  getSale,
  listSaleEvents,
  paidLateFrom,
  transitionSale,
  type SaleChange,
  type SaleRow,
} from '#main/store/sales-repo';
import type { CheckPolicy } from './check-schedule';
import { retryableCause } from './create-failure';
import { OUTAGE_ACTION_CAUSES } from './outage-actions';
import { isOfflineCause, type ReachEvidence } from './reach-evidence';
import { SaleError, type EngineEvents, type SalesEngineDeps } from './engine-types';
import type { Publisher } from './publisher';
import type { SaleQueue } from './sale-queue';
import type { Scheduler } from '#main/clock/scheduler';

/** What every engine module is given: the outside parts, the policy and the shared queue. */
export interface EngineContext {
  readonly deps: SalesEngineDeps;
  readonly db: Db;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly events: EngineEvents;
  readonly policy: CheckPolicy;
  readonly queue: SaleQueue;
  readonly publisher: Publisher;
  /** What this engine's own account requests say about reaching the provider. */
  readonly reach: ReachEvidence;
}

export function saleView(ctx: EngineContext, sale: SaleRow): SaleView {
  const account = sale.accountId === null ? undefined : getAccount(ctx.db, sale.accountId);
  return {
    id: sale.id,
    state: sale.state,
    reason: sale.reason,
    amountKobo: sale.amountKobo,
    amountDueKobo: sale.amountDueKobo ?? sale.amountKobo,
    note: sale.note,
    cashier: sale.cashier,
    tillId: sale.tillId,
    reference: sale.reference,
    accountNumber: account?.accountNumber ?? null,
    accountName: account?.accountName ?? null,
    bank: account?.bank ?? null,
    expiresAt: sale.expiresAt,
    paidAt: sale.paidAt,
    paidSessionId: sale.paidSessionId,
    createdAt: sale.createdAt,
    updatedAt: sale.updatedAt,
    callbackMode: ctx.deps.callbackHealth.state(),
    ...lateFacts(ctx, sale),
    ...failureFacts(ctx, sale),
    ...outageFacts(ctx, sale),
    refundsOwed: refundsOwed(ctx, sale),
  };
}

/** A sale that could not start: whether "Try again" can help, and whether no answer came. */
function failureFacts(
  ctx: EngineContext,
  sale: SaleRow,
): Pick<SaleView, 'canRetry' | 'offlineCause'> {
  if (sale.state !== 'failed_to_create') return { canRetry: false, offlineCause: false };
  const cause = failureCause(ctx, sale.id);
  return { canRetry: retryableCause(cause), offlineCause: isOfflineCause(cause) };
}

/** An outage sale (it asks for an exact amount): the shop's policy and what was recorded. */
function outageFacts(
  ctx: EngineContext,
  sale: SaleRow,
): Pick<SaleView, 'outagePolicy' | 'outageAction'> {
  if (sale.amountDueKobo === null) return { outagePolicy: null, outageAction: null };
  const recorded = listSaleEvents(ctx.db, sale.id).findLast((event) =>
    OUTAGE_ACTIONS.some((action) => OUTAGE_ACTION_CAUSES[action] === event.cause),
  );
  return {
    outagePolicy: ctx.deps.settings().outage.policy,
    outageAction:
      OUTAGE_ACTIONS.find((action) => OUTAGE_ACTION_CAUSES[action] === recorded?.cause) ?? null,
  };
}

/**
 * The extra transfers into a paid sale still owed back: its open "paid twice" alerts (none
 * names the transfer that pays it: main moves that alert when the provider dates it first).
 */
function refundsOwed(ctx: EngineContext, sale: SaleRow): readonly RefundOwed[] {
  if (sale.paidSessionId === null) return [];
  return listOpenAlertsOfSale(ctx.db, sale.id)
    .filter((alert) => alert.kind === PAID_TWICE)
    .filter((alert) => alert.sessionId !== sale.paidSessionId)
    .map((alert) => ({
      alertId: alert.id,
      amountKobo:
        (alert.sessionId === null ? undefined : getInflowBySession(ctx.db, alert.sessionId))
          ?.amountKobo ?? sale.amountKobo,
      sessionId: alert.sessionId,
      details: alert.message,
    }));
}

const PAID_AFTER: readonly SaleState[] = ['cancelled', 'expired', 'failed_to_create'];

function isPaidAfter(state: SaleState | null): state is PaidAfter {
  return state !== null && PAID_AFTER.includes(state);
}

/** A paid_late sale's two facts for the cashier: what it was paid after, and what was done. */
function lateFacts(
  ctx: EngineContext,
  sale: SaleRow,
): Pick<SaleView, 'paidAfter' | 'lateResolution'> {
  if (sale.state !== 'paid_late') return { paidAfter: null, lateResolution: null };
  const from = paidLateFrom(ctx.db, sale.id);
  return {
    paidAfter: isPaidAfter(from) ? from : null,
    lateResolution: entryResolution(currentEntry(ctx.db, paidLateKey(sale.id))),
  };
}

/**
 * Every page is shown the sale's view again: a record kept outside the sale (what was done
 * about its late payment) changed what the view says.
 */
export function showSaleAgain(ctx: EngineContext, saleId: number): void {
  const sale = getSale(ctx.db, saleId);
  if (sale) ctx.events.saleChanged(saleView(ctx, sale));
}

/** Why the sale last failed to get its account (its newest change into failed_to_create). */
function failureCause(ctx: EngineContext, saleId: number): string {
  const events = listSaleEvents(ctx.db, saleId);
  return events.findLast((event) => event.toState === 'failed_to_create')?.cause ?? '';
}

/** A guarded state change, logged and published (after the commit, inside atomically). */
export function changeSale(
  ctx: EngineContext,
  saleId: number,
  next: SaleChange,
  expect?: readonly SaleState[],
): SaleRow | undefined {
  // The alerts the new state resolves close in the same transaction as the change.
  return ctx.publisher.atomically(() => {
    const now = ctx.scheduler.now();
    const updated = transitionSale(ctx.db, saleId, next, now, expect);
    if (updated) {
      ctx.logger.info({ saleId, state: updated.state, cause: next.cause }, 'sale changed');
      const shown = saleView(ctx, updated);
      ctx.publisher.publish(() => ctx.events.saleChanged(shown));
      publishClosedAlerts(ctx, closeAlertsForSaleState(ctx.db, saleId, updated.state, now));
    }
    return updated;
  });
}

/** Alerts closed by what resolved them: every page showing them hears it (after the commit). */
export function publishClosedAlerts(ctx: EngineContext, closed: readonly AlertRow[]): void {
  for (const row of closed) {
    ctx.logger.info({ kind: row.kind, saleId: row.saleId, closedBy: row.closedBy }, 'alert closed');
    ctx.publisher.publish(() => ctx.events.alertChanged(row));
  }
}

/** Raises an alert once (by its dedupe key); true when it is new. */
export function raiseEngineAlert(ctx: EngineContext, input: NewAlert): boolean {
  const row = raiseAlert(ctx.db, input, ctx.scheduler.now());
  if (!row) return false;
  ctx.logger.warn({ kind: row.kind, saleId: row.saleId }, row.message);
  ctx.publisher.publish(() => ctx.events.alertChanged(row));
  return true;
}

/**
 * A person acknowledged an alert: every page showing it hears that it closed, and a sale whose
 * view it shaped (a refund owed) is shown again.
 */
export function acknowledgeEngineAlert(
  ctx: EngineContext,
  alertId: number,
  by: string | null,
): boolean {
  const acknowledged = acknowledgeAlert(ctx.db, alertId, ctx.scheduler.now(), by);
  const row = acknowledged ? getAlert(ctx.db, alertId) : undefined;
  if (!row) return false;
  publishClosedAlerts(ctx, [row]);
  if (row.saleId !== null) showSaleAgain(ctx, row.saleId);
  return true;
}

export function requireSale(ctx: EngineContext, saleId: number): SaleRow {
  const sale = getSale(ctx.db, saleId);
  if (!sale) throw new SaleError('SALE_NOT_FOUND', `Sale ${saleId} does not exist.`);
  return sale;
}
