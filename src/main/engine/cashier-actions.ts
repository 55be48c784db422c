import { isOpenSaleState, type SaleView } from '#shared/sales';
import { getSaleOrThrow, type SaleRow } from '#main/store/sales-repo';
import { StoreFullError } from '#main/store/store-space';
import { watchEndsAt } from './check-schedule';
import { createAccountFor, restartCreation, storeNewSale, validateAmount } from './creation';
import { changeSale, requireSale, saleView, type EngineContext } from './engine-context';
import { SaleError, type NewSaleInput } from './engine-types';
import { checkForCashier } from './sale-checks';
import type { WatchEnv } from './watch-book';
import { watchSale } from './watching';

export async function createSale(env: WatchEnv, input: NewSaleInput): Promise<SaleView> {
  const { ctx } = env;
  validateAmount(ctx, input.amountKobo);
  const sale = storeNewSaleUnlessFull(ctx, input);
  ctx.events.saleChanged(saleView(ctx, sale));
  const result = await ctx.queue
    .run(sale.id, () => createAccountFor(env, sale.id, 1))
    .catch((error: unknown) => {
      // The disk filled between the two writes: the sale stays 'creating', the next start
      // resolves it, and the cashier reads why.
      if (ctx.deps.storeSpace?.noteFailure(error)) throw new StoreFullError(error);
      throw error;
    });
  return saleView(ctx, result);
}

/**
 * A full store refuses a new sale before the provider is asked for an account: no customer is
 * shown a number whose payment the till could not record.
 */
function storeNewSaleUnlessFull(ctx: EngineContext, input: NewSaleInput): SaleRow {
  const space = ctx.deps.storeSpace;
  if (space?.isFull()) throw new StoreFullError();
  try {
    return storeNewSale(ctx, input);
  } catch (error) {
    if (space?.noteFailure(error)) throw new StoreFullError(error);
    throw error;
  }
}

/** A sale whose account could not be created: try again with a new reference. */
export async function retrySale(env: WatchEnv, saleId: number): Promise<SaleView> {
  const { ctx } = env;
  const sale = requireSale(ctx, saleId);
  if (sale.state !== 'failed_to_create') {
    throw new SaleError(
      'SALE_NOT_OPEN',
      'Only a sale whose account could not be created can be retried.',
    );
  }
  restartCreation(ctx, sale, { cause: 'cashier-retry', reason: null }, ['failed_to_create']);
  return saleView(ctx, await ctx.queue.run(saleId, () => createAccountFor(env, saleId, 1)));
}

/**
 * There is no cancel endpoint: the account stays valid at the provider until it expires (or
 * longer, with a provider that takes money after expiry), so the engine keeps watching it and
 * records a late payment if one comes.
 */
export function cancelSale(env: WatchEnv, saleId: number): SaleView {
  const { ctx } = env;
  const sale = requireSale(ctx, saleId);
  if (!isOpenSaleState(sale.state) || sale.state === 'creating') {
    throw new SaleError(
      'SALE_NOT_OPEN',
      `Sale #${saleId} is ${sale.state.replace('_', ' ')} and cannot be cancelled.`,
    );
  }
  const updated = changeSale(
    ctx,
    saleId,
    { state: 'cancelled', cause: 'cashier', reason: 'Cancelled by the cashier.' },
    ['awaiting_payment', 'confirming', 'wrong_amount'],
  );
  watchSale(env, saleId);
  return saleView(ctx, updated ?? getSaleOrThrow(ctx.db, saleId));
}

/** "Customer says they paid": a check at once (or a reuse of one just made), then the backoff. */
export async function customerSaysPaid(env: WatchEnv, saleId: number): Promise<SaleView> {
  const { ctx } = env;
  const sale = requireSale(ctx, saleId);
  const end = watchEndsAt(sale.state, sale.expiresAt, ctx.policy);
  if (sale.paidSessionId !== null || end === null || ctx.scheduler.now() >= end) {
    return saleView(ctx, sale);
  }
  await ctx.queue.run(saleId, async () => {
    await checkForCashier(env, saleId);
    watchSale(env, saleId, 'cashier');
  });
  return saleView(ctx, getSaleOrThrow(ctx.db, saleId));
}
