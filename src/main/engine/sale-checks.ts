import { decidePastDeadline, type DecidedCheck } from './deadline-actions';
import type { CheckTrigger } from './engine-types';
import {
  askStatus,
  completeAndApply,
  currentSale,
  worthAsking,
  type LookupRule,
} from './status-check';
import type { WatchEnv } from './watch-book';

export interface SaleCheck extends DecidedCheck {
  /** The sale has just learned of a transfer in progress: the backoff should start. */
  readonly newlyPending: boolean;
}

/**
 * One status check of a sale, from any trigger: asked, counted against the sale's request
 * budget, completed with the listing lookup when the rule says so, applied, and decided when it
 * ran at or past the deadline. Runs inside the sale's queue. Null when there is nothing to ask
 * (paid, or still being created).
 */
export async function checkSaleStatus(
  env: WatchEnv,
  saleId: number,
  trigger: CheckTrigger,
  rule: LookupRule,
): Promise<SaleCheck | null> {
  const { ctx, book } = env;
  const sale = currentSale(ctx, saleId);
  if (!worthAsking(sale)) return null;
  const askedAt = ctx.scheduler.now();
  const answer = await askStatus(ctx, sale);
  const watch = book.watches.get(saleId);
  if (watch) {
    watch.checks += 1;
    watch.lastCheckAt = askedAt;
    watch.lastAnswer = answer;
  }
  const applied = await completeAndApply(ctx, env.lookup, sale, { answer, askedAt }, trigger, rule);
  return { ...decidePastDeadline(ctx, applied), newlyPending: applied.newlyPending };
}

/**
 * "Customer says they paid": a check now, except that a status request sent within the last
 * pressReuseMs is reused (its answer applied again, with the listing lookup) instead of sending
 * another. Runs inside the sale's queue.
 */
export async function checkForCashier(env: WatchEnv, saleId: number): Promise<SaleCheck | null> {
  const { ctx, book } = env;
  const rule = { lookup: true, lookupMaxAgeMs: ctx.policy.pressReuseMs };
  const watch = book.watches.get(saleId);
  const now = ctx.scheduler.now();
  if (
    !watch?.lastAnswer ||
    watch.lastCheckAt === null ||
    now - watch.lastCheckAt > ctx.policy.pressReuseMs
  ) {
    return checkSaleStatus(env, saleId, 'cashier', rule);
  }
  const sale = currentSale(ctx, saleId);
  if (!worthAsking(sale)) return null;
  const asked = { answer: watch.lastAnswer, askedAt: watch.lastCheckAt };
  const applied = await completeAndApply(ctx, env.lookup, sale, asked, 'cashier', rule);
  return { ...decidePastDeadline(ctx, applied), newlyPending: applied.newlyPending };
}
