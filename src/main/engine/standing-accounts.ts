import type { VirtualAccountType } from '#main/provider/schemas';
import {
  insertPendingAccount,
  markAccountActive,
  setAccountStatus,
  type AccountPurpose,
  type AccountRow,
} from '#main/store/accounts-repo';
import type { EngineContext } from './engine-context';
import type { CallbackHint } from '#main/webhook/types';
import { recordInflow } from './inflow-recording';
import { isOutageAccount, matchOutagePayment } from './outage-matching';

export interface NewStandingAccount {
  readonly type: Extract<VirtualAccountType, 'static' | 'static-flex'>;
  readonly amountKobo?: number;
  /** 'counter' (default): the owner's; 'outage': the one this till sells on when offline. */
  readonly purpose?: Extract<AccountPurpose, 'counter' | 'outage'>;
}

/**
 * A permanent standing account (static-flex: any amount; static: a fixed amount). Its
 * reference reads as a standing account's whatever its purpose.
 */
export async function createStandingAccount(
  ctx: EngineContext,
  input: NewStandingAccount,
): Promise<AccountRow> {
  const { db, scheduler, deps } = ctx;
  const settings = deps.settings();
  const target = deps.callbackTarget();
  const reference = deps.references.next('counter');
  const pending = insertPendingAccount(
    db,
    {
      type: input.type,
      purpose: input.purpose ?? 'counter',
      reference,
      amountKobo: input.type === 'static' ? (input.amountKobo ?? null) : null,
      expiryMinutes: null,
      callbackUrl: target.url,
    },
    scheduler.now(),
  );
  try {
    const issued = await deps.client().createVirtualAccount({
      reference,
      accountName: settings.accountName,
      merchantId: settings.merchantId,
      merchant: settings.merchantCategory,
      type: input.type,
      ...(input.type === 'static' ? { amountKobo: input.amountKobo } : {}),
      callbackUrl: target.url,
    });
    return markAccountActive(
      db,
      pending.id,
      {
        providerReference: issued.providerReference,
        accountNumber: issued.accountNumber,
        accountName: issued.accountName,
        bank: issued.bank,
        expiresAt: null,
      },
      scheduler.now(),
    );
  } catch (error) {
    setAccountStatus(db, pending.id, 'failed_to_create', scheduler.now());
    throw error;
  }
}

/**
 * A permanent account has many payments and the status endpoint shows one: a callback is
 * recorded when that one is the callback's, and the listing sync confirms the rest. A payment
 * into the outage account is then matched to its outage sale (outage-matching.ts).
 */
export async function confirmStandingCallback(
  ctx: EngineContext,
  account: AccountRow,
  hint: CallbackHint,
): Promise<string> {
  try {
    const askedAt = ctx.scheduler.now();
    const result = await ctx.deps.client().checkPayment(account.reference);
    if (
      result.kind === 'confirmed' &&
      (!hint.sessionId || result.record.sessionId === hint.sessionId)
    ) {
      const match = ctx.publisher.atomically(() => {
        const { row } = recordInflow(
          ctx,
          { ...result.record, externalReference: account.reference },
          'callback',
          { accountId: account.id },
          askedAt,
        );
        return isOutageAccount(account) ? matchOutagePayment(ctx, row) : undefined;
      });
      return match === undefined ? 'standing-confirmed' : `outage-${match}`;
    }
    return 'standing-needs-sync';
  } catch (error) {
    ctx.logger.warn({ accountId: account.id, err: error }, 'standing account status check failed');
    return 'standing-needs-sync';
  }
}
