/**
 * The provider boundary in zod: what we send (the create request, in app terms) and what we
 * accept back. Responses are parsed into readonly app values: amounts in integer kobo, dates
 * both raw and as epoch ms, `session_id` as a digit string. Unknown extra fields are dropped.
 */
import { z } from 'zod';
import { MAX_KOBO, MoneyError, koboToNaira, nairaToKobo, type Kobo } from '#shared/money';
import {
  DEFAULT_PROVIDER_TIME_ZONE,
  ProviderTimeError,
  parseProviderTimestamp,
} from '#shared/provider-time';
import { splitListingRows } from './listing-rows';

// ---------------------------------------------------------------------------------------------
// Create request (app terms)

export const VIRTUAL_ACCOUNT_TYPES = ['nonstatic', 'static', 'static-flex'] as const;
export type VirtualAccountType = (typeof VIRTUAL_ACCOUNT_TYPES)[number];

/** The interface's rule for `reference`: 1..100 of [A-Za-z0-9_-]. */
export const REFERENCE_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The interface gives no bound for `expiers_in`. A counter sale waits minutes, not days; a day
 * is generous and keeps a typo (600000 instead of 60) from creating an account that lives on.
 */
export const MAX_EXPIRY_MINUTES = 1440;

export interface CreateVirtualAccountInput {
  readonly reference: string;
  readonly accountName: string;
  readonly merchantId: string;
  /** Merchant category; default 'others' (the interface's value for unclassified merchants). */
  readonly merchant?: string;
  readonly type: VirtualAccountType;
  /** Required for nonstatic and static, forbidden for static-flex. */
  readonly amountKobo?: Kobo;
  /** Required for nonstatic, forbidden for the others. */
  readonly expiryMinutes?: number;
  readonly callbackUrl: string;
}

const nonBlank = (what: string) =>
  z.string().refine((value) => value.trim().length > 0, `${what} must not be empty`);

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Strict: an unknown key (say `expires_in` or `amount`) is a caller's mistake worth reporting. */
export const createVirtualAccountInputSchema = z
  .strictObject({
    reference: z
      .string()
      .regex(REFERENCE_PATTERN, 'reference must be 1 to 100 characters of A-Z, a-z, 0-9, _ or -'),
    accountName: nonBlank('accountName'),
    merchantId: nonBlank('merchantId'),
    merchant: nonBlank('merchant').optional(),
    type: z.enum(VIRTUAL_ACCOUNT_TYPES, {
      message: `type must be one of ${VIRTUAL_ACCOUNT_TYPES.join(', ')}`,
    }),
    amountKobo: z
      .number()
      .refine(
        (value) => Number.isSafeInteger(value) && value > 0 && value <= MAX_KOBO,
        'amountKobo must be a positive whole number of kobo',
      )
      .optional(),
    expiryMinutes: z
      .number()
      .refine(
        (value) => Number.isInteger(value) && value >= 1 && value <= MAX_EXPIRY_MINUTES,
        `expiryMinutes must be a whole number of minutes from 1 to ${MAX_EXPIRY_MINUTES}`,
      )
      .optional(),
    callbackUrl: z.string().refine(isHttpUrl, 'callbackUrl must be an absolute http(s) URL'),
  })
  .superRefine((input, ctx) => {
    const needsAmount = input.type === 'nonstatic' || input.type === 'static';
    if (needsAmount && input.amountKobo === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['amountKobo'],
        message: `amountKobo is required for a ${input.type} account`,
      });
    }
    if (!needsAmount && input.amountKobo !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['amountKobo'],
        message: 'amountKobo must be left out for a static-flex account (any amount is accepted)',
      });
    }
    if (input.type === 'nonstatic' && input.expiryMinutes === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['expiryMinutes'],
        message: 'expiryMinutes is required for a nonstatic account',
      });
    }
    if (input.type !== 'nonstatic' && input.expiryMinutes !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['expiryMinutes'],
        message: `expiryMinutes must be left out for a ${input.type} account (the provider ignores it)`,
      });
    }
  });

/** The wire body of POST /virtual/new-account (section 2.2), names exactly as the provider. */
export interface CreateVirtualAccountBody {
  readonly reference: string;
  readonly account_name: string;
  readonly merchant_id: string;
  /** Naira, at most two decimals. */
  readonly amount?: number;
  /** Spelt `expiers_in` on purpose: the provider does not accept `expires_in`. */
  readonly expiers_in?: number;
  readonly type: VirtualAccountType;
  readonly callback_url: string;
  readonly merchant: string;
}

/** Maps validated input to the wire body; fields the type does not use are left out. */
export function toCreateBody(input: CreateVirtualAccountInput): CreateVirtualAccountBody {
  return {
    reference: input.reference,
    account_name: input.accountName,
    merchant_id: input.merchantId,
    ...(input.amountKobo === undefined ? {} : { amount: koboToNaira(input.amountKobo) }),
    ...(input.expiryMinutes === undefined ? {} : { expiers_in: input.expiryMinutes }),
    type: input.type,
    callback_url: input.callbackUrl,
    merchant: input.merchant ?? 'others',
  };
}

// ---------------------------------------------------------------------------------------------
// Response values (app terms)

export type TransactionStatus = 'success' | 'failed' | 'pending' | 'unknown';

export interface VirtualAccount {
  readonly accountNumber: string;
  readonly accountName: string;
  /** The reference the provider generated for the account (its own id). */
  readonly providerReference: string;
  /** `Bank` (capital B) on the wire. */
  readonly bank: string;
  /** The reference we sent. */
  readonly externalReference: string;
  readonly status: string;
}

export interface PaymentStatusRecord {
  readonly status: TransactionStatus;
  /** The provider's own status text, kept for 'unknown' and for the record. */
  readonly rawStatus: string;
  readonly sessionId: string;
  readonly reference: string;
  readonly amountKobo: Kobo;
  /** Raw provider timestamp 'YYYY-MM-DD HH:MM:SS'. */
  readonly date: string;
  readonly dateMs: number;
}

export interface TransactionRecord {
  readonly amountKobo: Kobo;
  readonly status: TransactionStatus;
  readonly rawStatus: string;
  readonly sessionId: string;
  readonly externalReference: string;
  readonly date: string;
  readonly dateMs: number;
}

/**
 * A listing row that failed its schema. It is set aside, not fatal: the rest of the page is
 * read, and the row is kept (raw) so that nothing the provider listed is silently lost.
 */
export interface UnreadableListingRow {
  /** Offset in the listing: the page's offset plus the row's index in the page. */
  readonly position: number;
  /** The row as JSON text, cut at MAX_UNREADABLE_RAW_CHARS (listing-rows.ts) characters. */
  readonly raw: string;
  /** What was wrong, without any value: 'session_id: missing; date: not a provider date'. */
  readonly problem: string;
}

export interface TransactionPage {
  /** The provider's total number of transactions, as given with this page. */
  readonly count: number;
  /** The rows that could be read, in listing order. */
  readonly transactions: readonly TransactionRecord[];
  /** The rows that could not be read; they still count as returned rows for paging. */
  readonly unreadable: readonly UnreadableListingRow[];
}

export interface PayoutBalance {
  readonly balanceType: string;
  /** `value` on the wire: already kobo. */
  readonly valueKobo: Kobo;
  readonly currency: string;
  readonly display: string | undefined;
}

export interface PayoutAccount {
  readonly id: string;
  readonly iban: string | null;
  readonly currency: number | undefined;
  readonly userId: number | undefined;
  readonly ownerName: string | undefined;
  readonly name: string | undefined;
  readonly productId: string | undefined;
  readonly type: string | undefined;
  readonly status: string | undefined;
  readonly balances: readonly PayoutBalance[];
  readonly externalData: Readonly<Record<string, unknown>> | undefined;
}

// ---------------------------------------------------------------------------------------------
// Response schemas

/** Naira on the wire to kobo: a JSON number, not negative, at most two decimals. */
export const nairaAmountSchema = z.number().transform((value, ctx): Kobo => {
  try {
    const kobo = nairaToKobo(value);
    if (kobo < 0) throw new MoneyError('Amount is negative');
    return kobo;
  } catch (error) {
    const reason = error instanceof MoneyError ? error.message : 'invalid amount';
    ctx.addIssue({ code: 'custom', message: `${reason} (expected Naira with at most 2 decimals)` });
    return z.NEVER;
  }
});

/** 30 digits do not survive as a JSON number (float), so a number is refused, not repaired. */
export const sessionIdSchema = z
  .string({ message: 'session_id must be a string of digits (a number loses precision)' })
  .regex(/^\d{1,64}$/, 'session_id must be a string of digits');

export const transactionStatusSchema = z
  .string()
  .transform((raw): { status: TransactionStatus; rawStatus: string } => ({
    status: raw === 'success' || raw === 'failed' || raw === 'pending' ? raw : 'unknown',
    rawStatus: raw,
  }));

export function providerDateSchema(timeZone: string) {
  return z.string().transform((raw, ctx): { date: string; dateMs: number } => {
    try {
      return { date: raw, dateMs: parseProviderTimestamp(raw, timeZone) };
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: error instanceof ProviderTimeError ? error.message : 'invalid date',
      });
      return z.NEVER;
    }
  });
}

function envelope<T extends z.ZodType>(data: T) {
  return z.object({
    status: z.literal('success', { message: "envelope status must be 'success'" }),
    data,
  });
}

const virtualAccountSchema = z
  .object({
    account_number: z.string().regex(/^\d{1,30}$/, 'account_number must be a string of digits'),
    account_name: z.string(),
    reference: z.string(),
    Bank: z.string().min(1),
    external_reference: z.string(),
    status: z.string(),
  })
  .transform((wire): VirtualAccount => ({
    accountNumber: wire.account_number,
    accountName: wire.account_name,
    providerReference: wire.reference,
    bank: wire.Bank,
    externalReference: wire.external_reference,
    status: wire.status,
  }));

function paymentStatusSchema(timeZone: string) {
  return z
    .object({
      status: transactionStatusSchema,
      session_id: sessionIdSchema,
      reference: z.string(),
      amount: nairaAmountSchema,
      date: providerDateSchema(timeZone),
    })
    .transform((wire): PaymentStatusRecord => ({
      ...wire.status,
      sessionId: wire.session_id,
      reference: wire.reference,
      amountKobo: wire.amount,
      ...wire.date,
    }));
}

function transactionSchema(timeZone: string) {
  return z
    .object({
      amount: nairaAmountSchema,
      status: transactionStatusSchema,
      session_id: sessionIdSchema,
      external_reference: z.string(),
      date: providerDateSchema(timeZone),
    })
    .transform((wire): TransactionRecord => ({
      amountKobo: wire.amount,
      ...wire.status,
      sessionId: wire.session_id,
      externalReference: wire.external_reference,
      ...wire.date,
    }));
}

const balanceSchema = z
  .object({
    balanceType: z.string(),
    value: z.number().refine(Number.isSafeInteger, 'balance value must be a whole number of kobo'),
    currency: z.string(),
    display: z.string().optional(),
  })
  .transform((wire): PayoutBalance => ({
    balanceType: wire.balanceType,
    valueKobo: wire.value,
    currency: wire.currency,
    display: wire.display,
  }));

/**
 * Section 2.5. Only `id` and `balances` are required: the rest is descriptive, mostly
 * "observed" in the interface, and must not break the balance screen by going missing. When
 * present, each must have its documented type.
 */
const payoutAccountSchema = z
  .object({
    id: z.string().min(1),
    iban: z.string().nullable().optional(),
    currency: z.number().optional(),
    userId: z.number().optional(),
    ownerName: z.string().optional(),
    name: z.string().optional(),
    productId: z.string().optional(),
    type: z.string().optional(),
    status: z.string().optional(),
    balances: z.array(balanceSchema),
    externalData: z.record(z.string(), z.unknown()).optional(),
  })
  .transform((wire): PayoutAccount => ({
    id: wire.id,
    iban: wire.iban ?? null,
    currency: wire.currency,
    userId: wire.userId,
    ownerName: wire.ownerName,
    name: wire.name,
    productId: wire.productId,
    type: wire.type,
    status: wire.status,
    balances: wire.balances,
    externalData: wire.externalData,
  }));

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The interface does not say whether the payout endpoint wraps its answer in the
 * `{ status, data }` envelope of the virtual-account endpoints. Accept both: a body with
 * `balances` is the account itself; otherwise an object `data` is unwrapped.
 */
function unwrapPayoutBody(body: unknown): unknown {
  if (isRecord(body) && !('balances' in body) && isRecord(body.data)) return body.data;
  return body;
}

export interface ResponseSchemas {
  readonly createResponse: z.ZodType<VirtualAccount>;
  readonly statusResponse: z.ZodType<PaymentStatusRecord>;
  /** Positions of unreadable rows are indexes in the page: listTransactions adds the offset. */
  readonly listResponse: z.ZodType<TransactionPage>;
  readonly payoutResponse: z.ZodType<PayoutAccount>;
}

/** Response schemas for a provider whose timestamps are wall time in `timeZone`. */
export function createResponseSchemas(
  timeZone: string = DEFAULT_PROVIDER_TIME_ZONE,
): ResponseSchemas {
  const row = transactionSchema(timeZone);
  return {
    createResponse: envelope(virtualAccountSchema).transform((body) => body.data),
    statusResponse: envelope(paymentStatusSchema(timeZone)).transform((body) => body.data),
    listResponse: envelope(
      z.object({
        count: z
          .number()
          .refine(
            (value) => Number.isSafeInteger(value) && value >= 0,
            'count must be a whole number, not negative',
          ),
        // Rows one by one (below): one bad row must not cost the page, nor the sync.
        transactions: z.array(z.unknown()),
      }),
    ).transform((body): TransactionPage => splitListingRows(body.data, row, 0)),
    payoutResponse: z.preprocess(unwrapPayoutBody, payoutAccountSchema),
  };
}

/** A short, value-free account of what was wrong: 'data.transactions[3].session_id: ...'. */
export function describeIssues(error: z.ZodError, max = 3): string {
  const parts = error.issues.slice(0, max).map((issue) => {
    const path = issue.path
      .map((key, index) =>
        typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`,
      )
      .join('');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : '';
  return parts.join('; ') + more;
}
