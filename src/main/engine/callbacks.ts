import { getAccountByReference, getStandingAccountByNumber } from '#main/store/accounts-repo';
import { markCallbackProcessed } from '#main/store/callback-log-repo';
import { getInflowBySession } from '#main/store/inflows-repo';
import { isStoreFullError } from '#main/store/store-space';
import {
  getLatestSaleByAccountNumber,
  getSale,
  getSaleByReference,
  type SaleRow,
} from '#main/store/sales-repo';
import { confirmStandingCallback } from './standing-accounts';
import { alertForeignShape, checkEveryOpenSale, saleForForeignShape } from './foreign-callbacks';
import { raiseEngineAlert } from './engine-context';
import type { CallbackHint } from '#main/webhook/types';
import { recheckPaidSale } from './paid-recheck';
import { checkSaleStatus } from './sale-checks';
import type { WatchEnv } from './watch-book';
import { watchSale } from './watching';

/**
 * A callback is only a hint: the sale it names is checked with the status endpoint, and one
 * the provider does not confirm (yet) is a callback timeout, so the interface's backoff starts.
 * The outcome is written to the callback log. The caller tracks the whole promise, so that
 * idle() (and close(), which closes the database after it) waits for that write too.
 */
export async function confirmCallback(
  env: WatchEnv,
  callbackId: number | null,
  hint: CallbackHint | null,
): Promise<string> {
  const { ctx } = env;
  const outcome = await outcomeOf(env, callbackId, hint);
  try {
    if (callbackId !== null)
      markCallbackProcessed(ctx.db, callbackId, outcome, ctx.scheduler.now());
  } catch (error) {
    // A full disk: the callback stays unprocessed, and the next start reads it again.
    if (!ctx.deps.storeSpace?.noteFailure(error)) throw error;
  }
  return outcome;
}

async function outcomeOf(
  env: WatchEnv,
  callbackId: number | null,
  hint: CallbackHint | null,
): Promise<string> {
  const { ctx } = env;
  const foreign = hint?.foreign;
  if (foreign) alertForeignShape(env, foreign);
  const sale = hint
    ? (saleForHint(env, hint) ?? (foreign ? saleForForeignShape(env, foreign) : undefined))
    : undefined;
  if (!sale) {
    const counter = hint ? standingAccountForHint(env, hint) : undefined;
    if (counter && hint) return confirmStandingCallback(ctx, counter, hint);
    // Nothing in it names a sale of this till: still news of money, so every open sale is
    // checked now rather than at the next safety-net check.
    if (!hint?.reference && !hint?.sessionId) return checkEveryOpenSale(env, callbackId, foreign);
    ctx.publisher.atomically(() =>
      raiseEngineAlert(ctx, {
        level: 'warning',
        kind: 'unknown_callback',
        message: `A payment notification arrived for ${hint?.reference ? `a reference this till does not know (${hint.reference})` : `a transfer this till does not know (session ${hint?.sessionId ?? 'unknown'})`}. Nothing was marked paid; it will be checked against the provider's list at the next sync.`,
        dedupeKey: `unknown_callback:${hint?.reference ?? hint?.sessionId ?? callbackId}`,
      }),
    );
    return 'unknown-reference';
  }
  let after: SaleRow;
  try {
    // Money for a paid sale under another session id (or none): perhaps the customer paid twice.
    if (sale.paidSessionId !== null && hint?.sessionId !== sale.paidSessionId) {
      return await recheckPaidSale(env, sale.id);
    }
    after = await ctx.queue.run(sale.id, async () => {
      const checked = await checkSaleStatus(env, sale.id, 'callback', { lookup: false });
      return checked?.sale ?? getSale(ctx.db, sale.id) ?? sale;
    });
  } catch (error) {
    // Its findings could not be stored (a full disk): the sale is watched, the write retried.
    if (!isStoreFullError(error)) throw error;
    watchSale(env, sale.id, 'callback');
    return 'not-stored:disk-full';
  }
  if (after.paidSessionId !== null) {
    watchSale(env, sale.id);
    return after.state === 'paid_late' ? 'confirmed-late' : 'confirmed';
  }
  watchSale(env, sale.id, 'callback');
  return `not-confirmed:${after.state}`;
}

function saleForHint(env: WatchEnv, hint: CallbackHint): SaleRow | undefined {
  const { db } = env.ctx;
  const byReference = hint.reference ? getSaleByReference(db, hint.reference) : undefined;
  if (byReference) return byReference;
  if (hint.sessionId) {
    const inflow = getInflowBySession(db, hint.sessionId);
    const linked = inflow?.saleId ? getSale(db, inflow.saleId) : undefined;
    // An outage sale's payment came into the outage account: its callbacks go that account's way.
    if (linked && linked.amountDueKobo === null) return linked;
    if (linked) return undefined;
  }
  return hint.accountNumber ? getLatestSaleByAccountNumber(db, hint.accountNumber) : undefined;
}

function standingAccountForHint(env: WatchEnv, hint: CallbackHint) {
  const { db } = env.ctx;
  const account = hint.reference ? getAccountByReference(db, hint.reference) : undefined;
  // The owner's counters and the till's outage account: permanent accounts, many payments each.
  if (account?.purpose === 'counter' || account?.purpose === 'outage') return account;
  return hint.accountNumber ? getStandingAccountByNumber(db, hint.accountNumber) : undefined;
}
