import type { OutageAction, SaleView } from '#shared/sales';
import type { AlertRow } from '#main/store/alerts-repo';
import type { TransactionRecord } from '#main/provider/schemas';
import type { AccountRow } from '#main/store/accounts-repo';
import type { InflowRow } from '#main/store/inflows-repo';
import { confirmCallback } from './callbacks';
import { cancelSale, createSale, customerSaysPaid, retrySale } from './cashier-actions';
import { DEFAULT_CHECK_POLICY } from './check-schedule';
import { createStandingAccount, type NewStandingAccount } from './standing-accounts';
import { createOutageAccountKeeper } from './outage-account';
import { createOutageSale, recordOutageAction } from './outage-sales';
import { createReachEvidence } from './reach-evidence';
import {
  publishClosedAlerts,
  acknowledgeEngineAlert,
  requireSale,
  saleView,
  showSaleAgain,
  type EngineContext,
} from './engine-context';
import type { CallbackHint } from '#main/webhook/types';
import type { NewSaleInput, SalesEngineDeps } from './engine-types';
import type { ListedChange } from './inflow-recording';
import { recordListedRow } from './listed-rows';
import { assignOutagePayment, type OutageAssignment } from './outage-assignment';
import { createListingLookup } from './listing-lookup';
import { createPublisher } from './publisher';
import { resumeSales } from './resume';
import { createSaleQueue } from './sale-queue';
import { closeWatchBook, createWatchBook, type WatchEnv } from './watch-book';
import { routeWentDown } from './watching';

export type { CallbackHint } from '#main/webhook/types';
export {
  SaleError,
  type CallbackTarget,
  type EngineEvents,
  type EngineSettings,
  type NewSaleInput,
  type SalesEngineDeps,
} from './engine-types';
/** The old name of the check policy's defaults, for the fault tests that read its times. */
export { DEFAULT_CHECK_POLICY as DEFAULT_CHECK_POLICY } from './check-schedule';

export interface SalesEngine {
  createSale(input: NewSaleInput): Promise<SaleView>;
  retrySale(saleId: number): Promise<SaleView>;
  cancelSale(saleId: number): SaleView;
  customerSaysPaid(saleId: number): Promise<SaleView>;
  getSale(saleId: number): SaleView;
  /** What was done about the sale's late payment was recorded: every page gets its view again. */
  lateResolutionRecorded(saleId: number): void;
  /** Alerts closed outside the engine (acknowledged, a report case recorded): pages hear it. */
  alertsClosed(rows: readonly AlertRow[]): void;
  /** A person acknowledged an alert (a paid-twice refund noted): its sale's view changes too. */
  acknowledgeAlert(alertId: number, by: string | null): boolean;
  handleCallback(callbackId: number | null, hint: CallbackHint | null): Promise<string>;
  /** A listing row; `listed` is what the sync's own upsert found when it stored the row first. */
  recordListedTransaction(tx: TransactionRecord, listed?: ListedChange): InflowRow;
  createStandingAccount(input: NewStandingAccount): Promise<AccountRow>;
  /** A sale on the till's standing account while the provider cannot be reached. */
  createOutageSale(input: NewSaleInput): SaleView;
  /** What the cashier did about an unconfirmed outage sale, recorded on it. */
  recordOutageAction(saleId: number, action: OutageAction, by: string | null): SaleView;
  /** The till's standing account for outages, made now when there is none. */
  ensureOutageAccount(): Promise<{ readonly account: AccountRow; readonly made: boolean }>;
  /** An owner gives a "Needs a person" payment into the outage account to an outage sale. */
  assignOutagePayment(input: OutageAssignment, by: string): SaleView;
  /** The callback route went down or changed address: open sales start the backoff now. */
  callbacksWentDown(): void;
  resume(): Promise<void>;
  idle(): Promise<void>;
  close(): void;
  /** For tests and diagnostics: how many sales have a check loop. */
  pollingCount(): number;
}

/**
 * The life of a sale from "the cashier typed an amount" to "the money is confirmed".
 *
 * A callback is only a hint: a sale becomes paid only when the provider's status endpoint (or
 * its listing) says `success` for the sale's reference with the exact amount. Every open sale
 * is checked by the till itself on a steady safety net, with the interface's backoff on top
 * after news of money on its way (check-schedule.ts); a deadline never expires a sale on an
 * unclear answer (deadline.ts). Each concern is a module; this file only composes them.
 */
export function createSalesEngine(deps: SalesEngineDeps): SalesEngine {
  const ctx: EngineContext = {
    deps,
    db: deps.db,
    scheduler: deps.scheduler,
    logger: deps.logger,
    events: deps.events,
    policy: deps.policy ?? DEFAULT_CHECK_POLICY,
    queue: createSaleQueue(),
    publisher: createPublisher(deps.db, deps.storeSpace),
    reach: createReachEvidence(() => deps.scheduler.now()),
  };
  const outageAccount = createOutageAccountKeeper(ctx);
  const providerUnreachable = deps.providerUnreachable ?? (() => ctx.reach.unreachable());
  const book = createWatchBook();
  const env: WatchEnv = {
    ctx,
    book,
    lookup: createListingLookup({
      client: deps.client,
      now: () => deps.scheduler.now(),
      logger: deps.logger,
    }),
  };

  return {
    createSale: (input) => createSale(env, input),
    retrySale: (saleId) => retrySale(env, saleId),
    cancelSale: (saleId) => cancelSale(env, saleId),
    customerSaysPaid: (saleId) => customerSaysPaid(env, saleId),
    getSale: (saleId) => saleView(ctx, requireSale(ctx, saleId)),
    lateResolutionRecorded: (saleId) => showSaleAgain(ctx, saleId),
    alertsClosed: (rows) => publishClosedAlerts(ctx, rows),
    acknowledgeAlert: (alertId, by) => acknowledgeEngineAlert(ctx, alertId, by),
    handleCallback: (callbackId, hint) => ctx.queue.track(confirmCallback(env, callbackId, hint)),
    recordListedTransaction: (tx, listed) => recordListedRow(env, tx, listed),
    createStandingAccount: (input) => createStandingAccount(ctx, input),
    createOutageSale: (input) => createOutageSale(ctx, input, providerUnreachable),
    recordOutageAction: (saleId, action, by) => recordOutageAction(ctx, saleId, action, by),
    ensureOutageAccount: () => outageAccount.ensure(),
    assignOutagePayment: (input, by) => saleView(ctx, assignOutagePayment(ctx, input, by)),
    callbacksWentDown: () => routeWentDown(env),
    resume: () => resumeSales(env),
    idle: () => ctx.queue.idle(),
    close: () => closeWatchBook(book),
    pollingCount: () => book.watches.size,
  };
}
