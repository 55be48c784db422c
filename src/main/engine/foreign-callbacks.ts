import {
  getLatestSaleByAccountNumber,
  getSaleByReference,
  listOpenSales,
  type SaleRow,
} from '#main/store/sales-repo';
import type { ForeignShape } from '#main/webhook/foreign-shape';
import { raiseEngineAlert } from './engine-context';
import { checkSaleStatus } from './sale-checks';
import type { WatchEnv } from './watch-book';
import { watchSale } from './watching';

/** Open sales checked at once for one callback that names none: the most recent ones. */
export const MAX_SALES_CHECKED_AT_ONCE = 20;

/**
 * The sale a callback of a shape the till does not recognise is about: a value of the body
 * equal to a sale's reference (or, failing that, to an open sale's account number), whatever
 * the field is called.
 */
export function saleForForeignShape(env: WatchEnv, foreign: ForeignShape): SaleRow | undefined {
  const { db } = env.ctx;
  for (const value of foreign.values) {
    const sale = getSaleByReference(db, value);
    if (sale) return sale;
  }
  for (const value of foreign.values) {
    if (!/^\d{10}$/.test(value)) continue;
    const sale = getLatestSaleByAccountNumber(db, value);
    if (sale) return sale;
  }
  return undefined;
}

/** Says once per shape (its field names) that callbacks come in a shape the till does not know. */
export function alertForeignShape(env: WatchEnv, foreign: ForeignShape): void {
  const { ctx } = env;
  const shape = [...foreign.fields].sort().join(',');
  ctx.publisher.atomically(() =>
    raiseEngineAlert(ctx, {
      level: 'info',
      kind: 'callback_shape',
      message: `Payment notifications (callbacks) arrive in a shape this till does not recognise (fields: ${foreign.fields.join(', ')}). The till still finds the sale from them and checks it with the provider, so nothing waits; tell support. Example, cut short and with secrets hidden: ${foreign.sample}`,
      dedupeKey: `callback_shape:${shape}`.slice(0, 500),
    }),
  );
}

/**
 * A callback that names no sale of this till is still news of money: every open sale is
 * checked with the status endpoint at once (the most recent MAX_SALES_CHECKED_AT_ONCE, each
 * check counted in its sale's request budget), instead of waiting for the safety net.
 */
export async function checkEveryOpenSale(
  env: WatchEnv,
  callbackId: number | null,
  foreign: ForeignShape | undefined,
): Promise<string> {
  const { ctx } = env;
  const open = listOpenSales(ctx.db)
    .filter((sale) => sale.state !== 'creating')
    .slice(-MAX_SALES_CHECKED_AT_ONCE);
  const checked = await Promise.all(
    open.map((sale) =>
      ctx.queue.run(sale.id, async () => {
        const result = await checkSaleStatus(env, sale.id, 'callback', { lookup: false });
        return result?.sale ?? sale;
      }),
    ),
  );
  const paid = checked.filter((sale) => sale.paidSessionId !== null);
  for (const sale of paid) watchSale(env, sale.id);
  const what = foreign
    ? `in a shape this till does not recognise (fields: ${foreign.fields.join(', ')})`
    : 'that could not be read';
  const found =
    paid.length > 0
      ? `it confirmed ${paid.map((sale) => `sale #${sale.id}`).join(', ')} as paid`
      : 'none of them was paid yet';
  const kept = foreign
    ? ` Kept for support, cut short and with secrets hidden: ${foreign.sample}`
    : '';
  ctx.publisher.atomically(() =>
    raiseEngineAlert(ctx, {
      level: paid.length > 0 ? 'info' : 'warning',
      kind: 'unknown_callback',
      message: `A payment notification (callback) arrived ${what}, naming no sale of this till. The till checked its ${open.length} open ${open.length === 1 ? 'sale' : 'sales'} with the provider at once: ${found}.${kept}`,
      dedupeKey: `unknown_callback:${callbackId ?? ctx.scheduler.now()}`,
    }),
  );
  return paid.length > 0
    ? `checked-open-sales:paid:${paid.map((s) => s.id).join(',')}`
    : 'checked-open-sales:none';
}
