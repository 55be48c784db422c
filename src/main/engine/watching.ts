import { isOpenSaleState } from '#shared/sales';
import { callbackUrlRecord } from '#main/security/callback-url-record';
import { getAccount } from '#main/store/accounts-repo';
import { getSale, listWatchedSales, type SaleRow } from '#main/store/sales-repo';
import { nextCheckDelay, watchEndsAt } from './check-schedule';
import { raiseEngineAlert } from './engine-context';
import { checkSaleStatus, type SaleCheck } from './sale-checks';
import type { BackoffCause, Watch, WatchEnv } from './watch-book';

/** Backoffs that follow news of money on its way: one that ends unconfirmed needs a person. */
const ALERTING_CAUSES: ReadonlySet<BackoffCause> = new Set(['callback', 'cashier', 'pending']);

/**
 * Makes sure a sale is watched for as long as it is worth asking about: its next check per
 * nextCheckDelay, and its deadline timer. With a cause, the interface's backoff starts now (a
 * running one is kept, except that the cashier's press always restarts it).
 */
export function watchSale(env: WatchEnv, saleId: number, cause?: BackoffCause): void {
  const { ctx, book } = env;
  if (book.closed) return;
  const sale = getSale(ctx.db, saleId);
  const end = sale ? watchEndsAt(sale.state, sale.expiresAt, ctx.policy) : null;
  if (!sale || end === null || ctx.scheduler.now() >= end) {
    unwatchSale(env, saleId);
    return;
  }
  let watch = book.watches.get(saleId);
  if (!watch) {
    watch = {
      saleId,
      since: ctx.scheduler.now(),
      checks: 0,
      lastCheckAt: null,
      lastAnswer: null,
      backoffStep: null,
      backoffCause: null,
      alertedAtCap: false,
      cancelNext: null,
    };
    book.watches.set(saleId, watch);
  }
  if (cause && isOpenSaleState(sale.state) && (cause === 'cashier' || watch.backoffStep === null)) {
    watch.backoffStep = 0;
    watch.backoffCause = cause;
  }
  scheduleNext(env, watch, sale);
  armDeadline(env, sale);
}

export function unwatchSale(env: WatchEnv, saleId: number): void {
  const { book } = env;
  book.watches.get(saleId)?.cancelNext?.();
  book.watches.delete(saleId);
  book.deadlines.get(saleId)?.();
  book.deadlines.delete(saleId);
}

function scheduleNext(env: WatchEnv, watch: Watch, sale: SaleRow): void {
  const { ctx, book } = env;
  watch.cancelNext?.();
  watch.cancelNext = null;
  const delay = nextCheckDelay(
    {
      state: sale.state,
      now: ctx.scheduler.now(),
      expiresAt: sale.expiresAt,
      watchedSince: watch.since,
      checks: watch.checks,
      lastCheckAt: watch.lastCheckAt,
      backoffStep: watch.backoffStep,
      callbacksDegraded: callbacksDegraded(env, sale),
    },
    ctx.policy,
  );
  if (delay === null) {
    book.watches.delete(sale.id);
    return;
  }
  watch.cancelNext = ctx.scheduler.setTimer(delay, () => {
    watch.cancelNext = null;
    void ctx.queue.run(sale.id, () => runScheduledCheck(env, watch));
  });
}

/**
 * Callbacks are known not to reach this sale: the health monitor says so (no route, or not
 * reaching), or the sale's account was made with another callback address (a restart without a
 * fixed address gives a new one, and the old one's callbacks never arrive).
 */
function callbacksDegraded(env: WatchEnv, sale: SaleRow): boolean {
  const { ctx } = env;
  if (ctx.deps.callbackHealth.degraded()) return true;
  const target = ctx.deps.callbackTarget();
  if (!target.live) return true;
  const account = sale.accountId === null ? undefined : getAccount(ctx.db, sale.accountId);
  return account?.callbackRecord !== callbackUrlRecord(target.url);
}

async function runScheduledCheck(env: WatchEnv, watch: Watch): Promise<void> {
  const { ctx, book } = env;
  if (book.closed || book.watches.get(watch.saleId) !== watch) return;
  const inBackoff = watch.backoffStep !== null;
  const open = isOpenSaleState(getSale(ctx.db, watch.saleId)?.state ?? 'paid');
  // The listing lookup runs on the safety-net cadence only, never on every backoff step.
  const result = await checkOrKeepWatching(env, watch.saleId, () =>
    checkSaleStatus(env, watch.saleId, inBackoff || !open ? 'poll' : 'safety-net', {
      lookup: !inBackoff,
    }),
  );
  if (book.closed || book.watches.get(watch.saleId) !== watch) return;
  if (inBackoff) advanceBackoff(env, watch, result);
  watchSale(env, watch.saleId, result?.newlyPending ? 'pending' : undefined);
}

function advanceBackoff(env: WatchEnv, watch: Watch, result: SaleCheck | null): void {
  const { ctx } = env;
  const step = (watch.backoffStep ?? 0) + 1;
  if (step < ctx.policy.backoffMs.length) {
    watch.backoffStep = step;
    return;
  }
  const cause = watch.backoffCause;
  watch.backoffStep = null;
  watch.backoffCause = null;
  const sale = result?.sale;
  if (!sale || !isOpenSaleState(sale.state) || watch.alertedAtCap) return;
  if (cause === null || !ALERTING_CAUSES.has(cause)) return;
  watch.alertedAtCap = true;
  const every = Math.round(ctx.policy.safetyNetMs / 1000);
  ctx.publisher.atomically(() =>
    raiseEngineAlert(ctx, {
      level: 'warning',
      kind: 'poll_cap',
      saleId: sale.id,
      message: `Sale #${sale.id}: no confirmation yet after ${watch.checks} checks. Still checking at least every ${every} s; ask the customer to show the transfer receipt.`,
      dedupeKey: `poll_cap:${sale.id}`,
    }),
  );
}

/**
 * The final check at expiresAt + expiryCheckDelayMs (for a cancelled sale too: a payment just
 * before expiry must be flagged), and for a sale kept open by an unclear answer, one more at
 * the end of the grace period, where decideAtDeadline gives up.
 */
function armDeadline(env: WatchEnv, sale: SaleRow): void {
  const { ctx, book } = env;
  if (book.deadlines.has(sale.id) || sale.expiresAt === null) return;
  const now = ctx.scheduler.now();
  const finalAt = sale.expiresAt + ctx.policy.expiryCheckDelayMs;
  const open = isOpenSaleState(sale.state) && sale.state !== 'creating';
  let at: number;
  if ((open || sale.state === 'cancelled') && now < finalAt) at = finalAt;
  else if (open) at = sale.expiresAt + ctx.policy.lateGraceMs;
  else return;
  const cancel = ctx.scheduler.setTimer(at - now, () => {
    book.deadlines.delete(sale.id);
    void ctx.queue.run(sale.id, () => runDeadlineCheck(env, sale.id));
  });
  book.deadlines.set(sale.id, cancel);
}

async function runDeadlineCheck(env: WatchEnv, saleId: number): Promise<void> {
  if (env.book.closed) return;
  const result = await checkOrKeepWatching(env, saleId, () =>
    checkSaleStatus(env, saleId, 'deadline', { lookup: true }),
  );
  if (env.book.closed) return;
  watchSale(env, saleId, result?.decision?.kind === 'keep-checking' ? 'deadline' : undefined);
}

/**
 * A check whose findings could not be stored (a full disk: StoreFullError) leaves the sale as
 * it was, and its watch goes on: the next check asks again and retries the write. Nothing was
 * published, since events wait for the commit.
 */
async function checkOrKeepWatching(
  env: WatchEnv,
  saleId: number,
  check: () => Promise<SaleCheck | null>,
): Promise<SaleCheck | null> {
  try {
    return await check();
  } catch (error) {
    env.ctx.logger.warn({ err: error, saleId }, 'a check could not be completed; still watching');
    return null;
  }
}

/** The callback route went down or changed: open sales start the backoff at once. */
export function routeWentDown(env: WatchEnv): void {
  const { ctx } = env;
  for (const sale of listWatchedSales(ctx.db, ctx.scheduler.now(), ctx.policy.lateGraceMs)) {
    if (sale.state === 'creating') continue;
    watchSale(env, sale.id, isOpenSaleState(sale.state) ? 'no-route' : undefined);
  }
}
