import { SMALLEST_SALE_KOBO } from '#shared/go-live';
import { formatNaira } from '#shared/money';
import type { SaleState } from '#shared/sales';
import { tillIdProblem } from '#shared/till-id';
import { isProviderError } from '#main/provider/errors';
import {
  insertPendingAccount,
  markAccountActive,
  setAccountStatus,
  type AccountRow,
} from '#main/store/accounts-repo';
import { getSaleOrThrow, insertSale, type SaleChange, type SaleRow } from '#main/store/sales-repo';
import { createFailureOf } from './create-failure';
import { changeSale, type EngineContext } from './engine-context';
import { SaleError, type NewSaleInput } from './engine-types';
import type { WatchEnv } from './watch-book';
import { watchSale } from './watching';

export function validateAmount(ctx: EngineContext, amountKobo: number): void {
  if (!Number.isSafeInteger(amountKobo) || amountKobo < SMALLEST_SALE_KOBO) {
    throw new SaleError('INVALID_AMOUNT', 'Enter an amount greater than ₦0.00.', 'amount');
  }
  const { maxSaleKobo } = ctx.deps.settings();
  if (amountKobo > maxSaleKobo) {
    throw new SaleError(
      'INVALID_AMOUNT',
      `The largest sale this till accepts is ${formatNaira(maxSaleKobo)} (see Settings).`,
      'amount',
    );
  }
}

/**
 * The sale is stored before the provider is called, and again after: a crash in between leaves
 * a 'creating' sale that the next start resolves.
 */
export function storeNewSale(ctx: EngineContext, input: NewSaleInput): SaleRow {
  const reference = ctx.deps.references.next('sale', input.tillId);
  const now = ctx.scheduler.now();
  return ctx.db.transaction(() => {
    const account = insertSaleAccount(ctx, reference, input.amountKobo);
    return insertSale(
      ctx.db,
      {
        accountId: account.id,
        amountKobo: input.amountKobo,
        note: input.note?.trim() || null,
        cashier: input.cashier?.trim() || null,
        tillId: input.tillId ?? ctx.deps.settings().tillId,
        pairedCounterId: input.pairedCounterId ?? null,
        reference,
      },
      now,
      'cashier',
    );
  })();
}

/** The pending row of a sale's nonstatic account, written before the provider is asked. */
function insertSaleAccount(ctx: EngineContext, reference: string, amountKobo: number): AccountRow {
  return insertPendingAccount(
    ctx.db,
    {
      type: 'nonstatic',
      purpose: 'sale',
      reference,
      amountKobo,
      expiryMinutes: ctx.deps.settings().expiryMinutes,
      callbackUrl: ctx.deps.callbackTarget().url,
    },
    ctx.scheduler.now(),
  );
}

/**
 * Back to 'creating' with a fresh reference and account row (after a 409, or a retry). The new
 * reference carries the prefix of the sale's own till: a counter's sale stays the counter's.
 */
export function restartCreation(
  ctx: EngineContext,
  sale: SaleRow,
  why: Pick<SaleChange, 'cause' | 'reason' | 'detail'>,
  expect?: readonly SaleState[],
): void {
  // A sale of an older build may hold a till id today's rule refuses: it gets this till's prefix.
  const tillId =
    sale.tillId !== null && tillIdProblem(sale.tillId) === null ? sale.tillId : undefined;
  const reference = ctx.deps.references.next('sale', tillId);
  ctx.db.transaction(() => {
    if (sale.accountId !== null) {
      setAccountStatus(ctx.db, sale.accountId, 'failed_to_create', ctx.scheduler.now());
    }
    const account = insertSaleAccount(ctx, reference, sale.amountKobo);
    changeSale(
      ctx,
      sale.id,
      { ...why, state: 'creating', fields: { reference, accountId: account.id } },
      expect,
    );
  })();
}

/** Asks the provider for the sale's account; runs inside the sale's queue. */
export async function createAccountFor(
  env: WatchEnv,
  saleId: number,
  attempt: 1 | 2,
): Promise<SaleRow> {
  const { ctx } = env;
  const { db, scheduler, deps } = ctx;
  const sale = getSaleOrThrow(db, saleId);
  const settings = deps.settings();
  const target = deps.callbackTarget();
  const startedAt = scheduler.now();
  try {
    const issued = await deps.client().createVirtualAccount({
      reference: sale.reference,
      accountName: settings.accountName,
      merchantId: settings.merchantId,
      merchant: settings.merchantCategory,
      type: 'nonstatic',
      amountKobo: sale.amountKobo,
      expiryMinutes: settings.expiryMinutes,
      callbackUrl: target.url,
    });
    ctx.reach.noteCreate({ answered: true });
    // The provider starts the clock somewhere between our request and its answer: counting
    // from the request keeps our countdown on the safe side of the provider's.
    const expiresAt = startedAt + settings.expiryMinutes * 60_000;
    if (sale.accountId !== null) {
      markAccountActive(
        db,
        sale.accountId,
        {
          providerReference: issued.providerReference,
          accountNumber: issued.accountNumber,
          accountName: issued.accountName,
          bank: issued.bank,
          expiresAt,
        },
        scheduler.now(),
      );
    }
    const updated = changeSale(
      ctx,
      saleId,
      { state: 'awaiting_payment', cause: 'account-created', reason: null, fields: { expiresAt } },
      ['creating'],
    );
    if (!updated) return getSaleOrThrow(db, saleId);
    // No callback can come without a live route: that is a callback timeout from the start.
    watchSale(env, saleId, target.live ? undefined : 'no-route');
    return updated;
  } catch (error) {
    if (isProviderError(error) && error.code === 'REFERENCE_IN_USE' && attempt === 1) {
      // Someone (another till, an earlier crashed run) used this reference: one retry with a
      // fresh one, never a blind resend of the same request.
      restartCreation(ctx, sale, {
        cause: 'reference-in-use',
        detail: { previousReference: sale.reference },
      });
      return createAccountFor(env, saleId, 2);
    }
    ctx.logger.warn({ saleId, err: error }, 'creating the virtual account failed');
    if (sale.accountId !== null) {
      setAccountStatus(db, sale.accountId, 'failed_to_create', scheduler.now());
    }
    const failure = createFailureOf(error);
    ctx.reach.noteCreate({ cause: failure.cause });
    return (
      changeSale(
        ctx,
        saleId,
        { state: 'failed_to_create', cause: failure.cause, reason: failure.words },
        ['creating'],
      ) ?? getSaleOrThrow(db, saleId)
    );
  }
}
