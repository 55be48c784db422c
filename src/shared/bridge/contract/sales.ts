import { z } from 'zod';
import { OUTAGE_ACTIONS, type AlertView, type InflowView, type SaleView } from '../../sales';
import type { ReceiptView, StandingAccountView } from '../../views';
import { channel, nairaText, noInput, ownsAlert, ownsSale } from './channel';

const saleId = z.object({ saleId: z.number().int().positive() }).strict();

export interface ActivityView {
  readonly sales: readonly SaleView[];
  readonly inflows: readonly InflowView[];
  readonly alerts: readonly AlertView[];
  readonly standingAccounts: readonly StandingAccountView[];
}

/** The sale screen, Activity and alerts: a cashier acts on their own sales only. */
export const saleChannels = {
  createSale: channel<SaleView>()(
    z
      .object({
        amount: nairaText,
        note: z.string().trim().max(200).optional(),
        /** Ignored when a cashier is signed in: the sale records the signed-in name. */
        cashier: z.string().trim().max(60).optional(),
      })
      .strict(),
    'cashier',
  ),
  /**
   * A sale on the till's standing account when the provider cannot be reached: `unconfirmed`,
   * asking for `amountDueKobo` (the amount plus a kobo tag), with no countdown. Refused when the
   * till has no such account, or when the provider answers and the owner has not allowed it.
   */
  createOutageSale: channel<SaleView>()(
    z
      .object({
        amount: nairaText,
        note: z.string().trim().max(200).optional(),
        /** Ignored when a cashier is signed in, as on createSale. */
        cashier: z.string().trim().max(60).optional(),
      })
      .strict(),
    'cashier',
  ),
  /** What the cashier did about an unconfirmed sale (goods given, or keep waiting): recorded. */
  recordOutageAction: channel<SaleView>()(
    z.object({ saleId: z.number().int().positive(), action: z.enum(OUTAGE_ACTIONS) }).strict(),
    'cashier',
    ownsSale,
  ),
  /** The till's standing account for outages, or null while it is not made yet. */
  getOutageAccount: channel<StandingAccountView | null>()(noInput),
  getSale: channel<SaleView>()(saleId, 'cashier', ownsSale),
  cancelSale: channel<SaleView>()(saleId, 'cashier', ownsSale),
  /** "Customer says they paid": an immediate status check, then polling. */
  customerSaysPaid: channel<SaleView>()(saleId, 'cashier', ownsSale),
  retrySale: channel<SaleView>()(saleId, 'cashier', ownsSale),
  getReceipt: channel<ReceiptView>()(saleId, 'cashier', ownsSale),
  /** A cashier gets only their own sales, and the money and alerts that belong to them. */
  getActivity: channel<ActivityView>()(noInput, 'cashier'),
  acknowledgeAlert: channel<{ readonly acknowledged: boolean }>()(
    z.object({ alertId: z.number().int().positive() }).strict(),
    'cashier',
    ownsAlert,
  ),
  createStandingAccount: channel<StandingAccountView>()(
    z.object({ type: z.enum(['static', 'static-flex']), amount: nairaText.optional() }).strict(),
  ),
  /**
   * The owner gives a "Needs a person" payment into the outage account to the outage sale it
   * was for (one press); recorded with who did it. Owner-only: the till never guesses, nor may
   * a cashier.
   */
  assignOutagePayment: channel<SaleView>()(
    z
      .object({
        sessionId: z.string().regex(/^\d{30}$/, 'A transfer\u2019s session id is 30 digits'),
        saleId: z.number().int().positive(),
      })
      .strict(),
    'owner',
    ownsSale,
  ),
} as const;
