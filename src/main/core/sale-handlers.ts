import type { ActivityView, Handlers } from '../../shared/bridge/contract';
import { businessDayRange, businessDay } from '../../shared/provider-time';
import type { ReceiptView } from '../../shared/views';
import type { SalesEngine } from '../engine/sales-engine';
import type { Scheduler } from '../engine/scheduler';
import { listCounterAccounts } from '../store/accounts-repo';
import { acknowledgeAlert, listOpenAlerts } from '../store/alerts-repo';
import type { Db } from '../store/database';
import { listRecentInflows } from '../store/inflows-repo';
import { listSalesCreatedBetween } from '../store/sales-repo';
import { AmountInputError, parseNairaInput } from './amount-input';
import { alertView, counterAccountView, inflowView } from './views';

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

type SaleChannels =
  | 'createSale'
  | 'getSale'
  | 'cancelSale'
  | 'checkSale'
  | 'retrySale'
  | 'getReceipt'
  | 'getActivity'
  | 'acknowledgeAlert'
  | 'createCounterAccount';

/** The cashier's channels: thin mappings from bridge inputs to the sales engine. */
export function saleHandlers(deps: SaleHandlerDeps): Pick<Handlers, SaleChannels> {
  const { db, engine, scheduler } = deps;

  function today(): readonly [number, number] {
    const { timeZone, cutoffHour } = deps.shop();
    const day = businessDay(scheduler.now(), { timeZone, cutoffHour });
    return businessDayRange(day, { timeZone, cutoffHour });
  }

  return {
    createSale: ({ amount, note, cashier }) => {
      const amountKobo = parseNairaInput(amount);
      deps.ensureConfigured();
      return engine.createSale({ amountKobo, note: note ?? null, cashier: cashier ?? null });
    },
    getSale: ({ saleId }) => engine.getSale(saleId),
    cancelSale: ({ saleId }) => engine.cancelSale(saleId),
    checkSale: ({ saleId }) => engine.customerSaysPaid(saleId),
    retrySale: ({ saleId }) => engine.retrySale(saleId),
    getReceipt: ({ saleId }): ReceiptView => {
      const sale = engine.getSale(saleId);
      const shop = deps.shop();
      return {
        shopName: shop.name,
        saleId: sale.id,
        state: sale.state,
        amountKobo: sale.amountKobo,
        accountNumber: sale.accountNumber,
        accountName: sale.accountName,
        bank: sale.bank,
        reference: sale.reference,
        sessionId: sale.paidSessionId,
        createdAt: sale.createdAt,
        paidAt: sale.paidAt,
        cashier: sale.cashier,
        tillId: sale.tillId,
        timeZone: shop.timeZone,
      };
    },
    getActivity: (): ActivityView => {
      const [from, to] = today();
      return {
        sales: listSalesCreatedBetween(db, from, to).map((row) => engine.getSale(row.id)),
        inflows: listRecentInflows(db, from).map(inflowView),
        alerts: listOpenAlerts(db).map(alertView),
        counterAccounts: listCounterAccounts(db).map(counterAccountView),
      };
    },
    acknowledgeAlert: ({ alertId }) => ({
      acknowledged: acknowledgeAlert(db, alertId, scheduler.now()),
    }),
    createCounterAccount: async ({ type, amount }) => {
      const amountKobo = amount === undefined ? undefined : parseNairaInput(amount);
      if (type === 'static' && amountKobo === undefined) {
        throw new AmountInputError('A static account needs its fixed amount.', 'amount');
      }
      return counterAccountView(
        await engine.createCounterAccount({
          type,
          ...(amountKobo === undefined ? {} : { amountKobo }),
        }),
      );
    },
  };
}
