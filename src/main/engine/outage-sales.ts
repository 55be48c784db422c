/**
 * Selling through an outage: a sale taken on the till's standing account when the provider
 * cannot be reached. It is `unconfirmed` from the start, asks for its amount plus a kobo tag
 * that tells it apart from the other open outage sales, and has no deadline and no status
 * checks (its account is not a sale's own): its money is matched once the link is back.
 */
import type { OutageAction, SaleView } from '#shared/sales';
import { getOutageAccount } from '#main/store/accounts-repo';
import { insertOutageSale } from '#main/store/sales-repo';
import { StoreFullError } from '#main/store/store-space';
import { validateAmount } from './creation';
import { changeSale, requireSale, saleView, type EngineContext } from './engine-context';
import { SaleError, type NewSaleInput } from './engine-types';
import { OUTAGE_ACTION_CAUSES } from './outage-actions';

export interface OutageFacts {
  /** The till holds its standing account for outages. */
  readonly hasAccount: boolean;
  /** The provider cannot be reached now (the reach state, or the till's own evidence). */
  readonly providerUnreachable: boolean;
  /** The owner lets cashiers take outage sales even while the provider answers. */
  readonly allowByChoice: boolean;
}

/** The one rule for whether an outage sale may be taken now: null, or the refusal's code. */
export function outageSaleAllowed(
  facts: OutageFacts,
): 'OUTAGE_ACCOUNT_MISSING' | 'OUTAGE_SALE_NOT_ALLOWED' | null {
  if (!facts.hasAccount) return 'OUTAGE_ACCOUNT_MISSING';
  if (!facts.providerUnreachable && !facts.allowByChoice) return 'OUTAGE_SALE_NOT_ALLOWED';
  return null;
}

const REFUSAL_WORDS = {
  OUTAGE_ACCOUNT_MISSING:
    'This till has no standing account for outages yet: an owner makes it with "Check everything" in Settings while the internet works.',
  OUTAGE_SALE_NOT_ALLOWED:
    'The provider is answering: start a normal sale (the owner can allow outage sales in Settings).',
} as const;

export function createOutageSale(
  ctx: EngineContext,
  input: NewSaleInput,
  providerUnreachable: () => boolean,
): SaleView {
  validateAmount(ctx, input.amountKobo);
  const account = getOutageAccount(ctx.db);
  const settings = ctx.deps.settings();
  const refusal = outageSaleAllowed({
    hasAccount: account !== undefined,
    providerUnreachable: providerUnreachable(),
    allowByChoice: settings.outage.allowByChoice,
  });
  if (refusal !== null || account === undefined) {
    const code = refusal ?? 'OUTAGE_ACCOUNT_MISSING';
    throw new SaleError(code, REFUSAL_WORDS[code]);
  }
  if (ctx.deps.storeSpace?.isFull()) throw new StoreFullError();
  const sale = insertOutageSale(
    ctx.db,
    {
      accountId: account.id,
      amountKobo: input.amountKobo,
      note: input.note?.trim() || null,
      cashier: input.cashier?.trim() || null,
      tillId: input.tillId ?? settings.tillId,
      pairedCounterId: input.pairedCounterId ?? null,
      reference: ctx.deps.references.next('sale', input.tillId),
    },
    ctx.scheduler.now(),
  );
  if (!sale) {
    throw new SaleError(
      'OUTAGE_TAGS_FULL',
      'Every exact amount for this price is taken by an unconfirmed sale: wait for some to be confirmed.',
      'amount',
    );
  }
  ctx.logger.info({ saleId: sale.id, amountDueKobo: sale.amountDueKobo }, 'outage sale taken');
  const view = saleView(ctx, sale);
  ctx.events.saleChanged(view);
  return view;
}

/** What the cashier did about an unconfirmed sale, recorded in its history (the state stays). */
export function recordOutageAction(
  ctx: EngineContext,
  saleId: number,
  action: OutageAction,
  by: string | null,
): SaleView {
  const sale = requireSale(ctx, saleId);
  if (sale.state !== 'unconfirmed') {
    throw new SaleError('SALE_NOT_OPEN', 'Only an unconfirmed sale takes this.');
  }
  if (action === 'goods_given' && ctx.deps.settings().outage.policy !== 'hand_over') {
    throw new SaleError(
      'OUTAGE_HAND_OVER_OFF',
      "The shop's policy is to wait until the payment is confirmed before giving the goods.",
    );
  }
  const updated = changeSale(
    ctx,
    saleId,
    { state: 'unconfirmed', cause: OUTAGE_ACTION_CAUSES[action], detail: { by } },
    ['unconfirmed'],
  );
  return saleView(ctx, updated ?? requireSale(ctx, saleId));
}
