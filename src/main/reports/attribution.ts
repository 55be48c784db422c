/**
 * Which till of the shop made a payment. The provider's listing is merchant-wide: every till of
 * the shop sees every till's payments, so each report must say whose money each row is, and
 * the only thing a row carries that says so is its reference (the till prefix, see
 * provider/references.ts). The one rule every report uses.
 */
import { parseReference } from '#main/provider/references';

export type AttributionKind = 'this-till' | 'other-till' | 'not-ours';

export interface Attribution {
  /**
   * 'this-till': made here; 'other-till': made by another till of this shop; 'not-ours': no
   * till of this shop made it (another system on the same merchant account, or a reference
   * this app never writes).
   */
  readonly kind: AttributionKind;
  /** The prefix of the till that made it (upper-cased), null when no till of the shop did. */
  readonly tillPrefix: string | null;
  /** Paid into a permanent standing account (static or static-flex) made by a till of the shop. */
  readonly standingAccount: boolean;
}

export interface AttributionContext {
  /** This till's reference prefix (referencePrefix of its till id). */
  readonly tillPrefix: string;
  /** A sale of this till's own database has this reference (or the payment is linked to one). */
  readonly localSale?: boolean;
  /** A standing account of this till's own database has this reference (or took the payment). */
  readonly localStandingAccount?: boolean;
}

/**
 * The till that made `reference`. Local records win: a sale or standing account in this till's
 * database is this till's whatever its prefix (the till id may have changed since). Otherwise a
 * reference in this app's format belongs to the till whose prefix it carries (compared without
 * case: older builds wrote the prefix as typed).
 */
export function attributeReference(
  reference: string | null,
  context: AttributionContext,
): Attribution {
  const parsed = parseReference(reference);
  const own = context.tillPrefix.toUpperCase();
  if (context.localStandingAccount || context.localSale) {
    return {
      kind: 'this-till',
      tillPrefix: parsed?.tillPrefix ?? own,
      standingAccount: context.localStandingAccount === true,
    };
  }
  if (!parsed) return { kind: 'not-ours', tillPrefix: null, standingAccount: false };
  return {
    kind: parsed.tillPrefix === own ? 'this-till' : 'other-till',
    tillPrefix: parsed.tillPrefix,
    standingAccount: parsed.standingAccount,
  };
}

/**
 * The line of the shop view a payment counts on: standing accounts are a line of their own
 * (whichever till made them), then this till, other tills, and money no till of the shop made.
 */
export type ShopLine = 'this-till' | 'other-till' | 'standing-account' | 'not-ours';

export function shopLine(attribution: Attribution): ShopLine {
  return attribution.standingAccount ? 'standing-account' : attribution.kind;
}

/** What the CSV's `till_attribution` column says for each line. */
export const SHOP_LINE_WORDS: Readonly<Record<ShopLine, string>> = {
  'this-till': 'This till',
  'other-till': 'Other till of this shop',
  'standing-account': 'Standing account',
  'not-ours': 'Not made by any till of this shop',
};
