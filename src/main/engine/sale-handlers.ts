import type { Caller, HandlersOf, saleChannels } from '#shared/bridge/contract';
import { businessDayRange, businessDay } from '#shared/provider-time';
import { effectiveRole, ForbiddenError, pairedCounterOf } from '#main/auth/caller';
import type { Scheduler } from '#main/clock/scheduler';
import { getOutageAccount } from '#main/store/accounts-repo';
import type { Db } from '#main/store/database';
import { activityOf } from './activity';
import { AmountInputError, parseNairaInput } from './amount-input';
import { receiptView } from './receipt-view';
import { standingAccountView } from './row-views';
import type { NewSaleInput, SalesEngine } from './sales-engine';

export interface SaleHandlerDeps {
  readonly db: Db;
  readonly engine: SalesEngine;
  readonly scheduler: Scheduler;
  /** Throws a clear NOT_CONFIGURED error before a sale is stored for an unset environment. */
  readonly ensureConfigured: () => void;
  readonly shop: () => {
    readonly name: string;
    readonly timeZone: string;
    readonly cutoffHour: number;
  };
}

/**
 * The cashier's channels: thin mappings from bridge inputs to the sales engine. A cashier sees
 * and acts on their own sales only; the owner on every sale. A counter paired to this hub sees
 * and acts on its own till's sales, whoever is signed in at it.
 */
export function saleHandlers(deps: SaleHandlerDeps): HandlersOf<typeof saleChannels> {
  const { db, engine, scheduler } = deps;

  /**
   * The till a counter's call acts for, or null for the hub's own pages. A 'counter' call with
   * no counter never reaches here through the access rule (it is signed out); refused anyway.
   */
  function counterTill(caller: Caller): string | null {
    if (caller.via !== 'counter') return null;
    const counter = pairedCounterOf(caller);
    if (!counter) throw new ForbiddenError('This counter is not paired with the hub.');
    return counter.tillId;
  }

  /** By the role main acts on: a counter is never the owner, whatever its caller says. */
  function isOwner(caller: Caller): boolean {
    return effectiveRole(caller) === 'owner';
  }

  /** A sale's input from a page: the amount, and the till and cashier it belongs to. */
  function newSale(
    { amount, note, cashier }: { amount: string; note?: string; cashier?: string },
    caller: Caller,
  ): NewSaleInput {
    const amountKobo = parseNairaInput(amount);
    // The signed-in name wins: a cashier cannot record a sale under someone else's name.
    const recorded = caller.name ?? (isOwner(caller) ? (cashier ?? null) : null);
    const tillId = counterTill(caller);
    const counter = pairedCounterOf(caller);
    return {
      amountKobo,
      note: note ?? null,
      cashier: recorded,
      ...(tillId === null || !counter ? {} : { tillId, pairedCounterId: counter.id }),
    };
  }

  function today(): readonly [number, number] {
    const { timeZone, cutoffHour } = deps.shop();
    const day = businessDay(scheduler.now(), { timeZone, cutoffHour });
    return businessDayRange(day, { timeZone, cutoffHour });
  }

  return {
    createSale: (input, caller) => {
      const sale = newSale(input, caller);
      deps.ensureConfigured();
      return engine.createSale(sale);
    },
    // No provider call: an outage sale is taken when the provider cannot be reached.
    createOutageSale: (input, caller) => engine.createOutageSale(newSale(input, caller)),
    recordOutageAction: ({ saleId, action }, caller) =>
      engine.recordOutageAction(saleId, action, caller.name),
    getOutageAccount: () => {
      const row = getOutageAccount(db);
      return row ? standingAccountView(row) : null;
    },
    // The channels on one sale or alert declare it in the contract table: dispatch has checked
    // that the caller owns it (and that it exists) before any of these runs.
    getSale: ({ saleId }) => engine.getSale(saleId),
    cancelSale: ({ saleId }) => engine.cancelSale(saleId),
    customerSaysPaid: ({ saleId }) => engine.customerSaysPaid(saleId),
    retrySale: ({ saleId }) => engine.retrySale(saleId),
    getReceipt: ({ saleId }) => receiptView(engine.getSale(saleId), deps.shop()),
    getActivity: (_input, caller) => activityOf(db, engine, caller, today()),
    acknowledgeAlert: ({ alertId }, caller) => ({
      acknowledged: engine.acknowledgeAlert(alertId, caller.name),
    }),
    // Owner-only in the table; recorded under the signed-in name, or "owner".
    assignOutagePayment: ({ sessionId, saleId }, caller) =>
      engine.assignOutagePayment({ sessionId, saleId }, caller.name ?? 'owner'),
    createStandingAccount: async ({ type, amount }) => {
      const amountKobo = amount === undefined ? undefined : parseNairaInput(amount);
      if (type === 'static' && amountKobo === undefined) {
        throw new AmountInputError('A static account needs its fixed amount.', 'amount');
      }
      return standingAccountView(
        await engine.createStandingAccount({
          type,
          ...(amountKobo === undefined ? {} : { amountKobo }),
        }),
      );
    },
  };
}
