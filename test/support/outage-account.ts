import { createReferenceGenerator } from '#main/provider/references';
import {
  insertPendingAccount,
  markAccountActive,
  type AccountRow,
} from '#main/store/accounts-repo';
import { insertOutageSale, type SaleRow } from '#main/store/sales-repo';
import { TEST_SETTINGS, type Harness } from './sales-harness';

/**
 * The till's outage account, made as engine/standing-accounts.ts makes a standing account: a
 * static-flex account through the sandbox's provider API, kept locally with purpose 'outage'.
 * `callbackUrl` null: the sandbox's callbacks go nowhere (the listing is the only news).
 */
export async function makeOutageAccount(
  h: Harness,
  callbackUrl: string | null = h.callbackUrl,
): Promise<AccountRow> {
  const reference = createReferenceGenerator({ clock: () => h.scheduler.now() }).next('counter');
  const target = callbackUrl ?? 'http://127.0.0.1:9/callbacks/nowhere';
  const pending = insertPendingAccount(
    h.db,
    {
      type: 'static-flex',
      purpose: 'outage',
      reference,
      amountKobo: null,
      expiryMinutes: null,
      callbackUrl: target,
    },
    h.scheduler.now(),
  );
  const issued = await h.client.createVirtualAccount({
    reference,
    accountName: TEST_SETTINGS.accountName,
    merchantId: TEST_SETTINGS.merchantId,
    merchant: TEST_SETTINGS.merchantCategory,
    type: 'static-flex',
    callbackUrl: target,
  });
  return markAccountActive(
    h.db,
    pending.id,
    {
      providerReference: issued.providerReference,
      accountNumber: issued.accountNumber,
      accountName: issued.accountName,
      bank: issued.bank,
      expiresAt: null,
    },
    h.scheduler.now(),
  );
}

let outageSales = 0;

/** An outage sale taken now on the outage account (as createOutageSale stores one). */
export function takeOutageSale(
  h: Harness,
  account: AccountRow,
  amountKobo: number,
  cashier: string | null = 'Ada',
): SaleRow {
  outageSales += 1;
  const sale = insertOutageSale(
    h.db,
    {
      accountId: account.id,
      amountKobo,
      note: null,
      cashier,
      tillId: TEST_SETTINGS.tillId,
      reference: `OUTAGE-SALE-${outageSales}-${h.scheduler.now()}`,
    },
    h.scheduler.now(),
  );
  if (!sale) throw new Error('No kobo tag left for this amount');
  return sale;
}

/** Naira as the customer's bank app sends it ("1500.01") from kobo. */
export function nairaOf(kobo: number): number {
  return kobo / 100;
}
