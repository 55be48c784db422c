import { isProviderError } from '#main/provider/errors';
import { getSaleOrThrow, type SaleRow } from '#main/store/sales-repo';
import {
  applyFindings,
  isInconclusive,
  type AppliedCheck,
  type CheckFindings,
  type StatusAnswer,
} from './confirmation';
import { raiseEngineAlert, type EngineContext } from './engine-context';
import type { CheckTrigger } from './engine-types';
import type { ListingLookup } from './listing-lookup';

export interface LookupRule {
  /** Whether an inconclusive answer is followed by the bounded listing lookup. */
  readonly lookup: boolean;
  /** How old the shared listing read may be (ms). */
  readonly lookupMaxAgeMs?: number;
}

/** Asks the status endpoint about a sale; an error is an answer too (never thrown). */
export async function askStatus(ctx: EngineContext, sale: SaleRow): Promise<StatusAnswer> {
  try {
    return await ctx.deps.client().checkPayment(sale.reference);
  } catch (error) {
    logStatusError(ctx, sale, error);
    return { kind: 'error' };
  }
}

/**
 * Completes a status answer with the listing lookup when the rule asks for it and the answer
 * cannot tell a failed transfer from nothing, then applies what was found to the sale.
 */
export async function completeAndApply(
  ctx: EngineContext,
  lookup: ListingLookup,
  sale: SaleRow,
  asked: { readonly answer: StatusAnswer; readonly askedAt: number },
  trigger: CheckTrigger,
  rule: LookupRule,
): Promise<AppliedCheck> {
  const findings: CheckFindings = {
    ...asked,
    lookup:
      rule.lookup && isInconclusive(asked.answer)
        ? await lookup.find(sale.reference, rule.lookupMaxAgeMs ?? ctx.policy.listingCacheMs)
        : null,
  };
  return applyFindings(ctx, sale.id, findings, trigger);
}

/** Whether the sale is in a state where asking the provider can change anything. */
export function worthAsking(sale: SaleRow): boolean {
  return sale.paidSessionId === null && sale.state !== 'creating';
}

export function currentSale(ctx: EngineContext, saleId: number): SaleRow {
  return getSaleOrThrow(ctx.db, saleId);
}

function logStatusError(ctx: EngineContext, sale: SaleRow, error: unknown): void {
  ctx.logger.warn({ saleId: sale.id, err: error }, 'status check failed');
  if (
    isProviderError(error) &&
    (error.code === 'PROVIDER_AUTH_REFUSED' || error.code === 'SETTLEMENT_ACCOUNT_NOT_FOUND')
  ) {
    raiseEngineAlert(ctx, {
      level: 'error',
      kind: 'provider_auth',
      message:
        'The provider refused our key while checking a payment. Check the secret key in Settings.',
      dedupeKey: `provider_auth:${new Date(ctx.scheduler.now()).toISOString().slice(0, 13)}`,
    });
  }
}
