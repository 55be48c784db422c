import { MoneyError, nairaToKobo } from '#shared/money';
import { invalidField, SandboxError } from './errors';
import { ACCOUNT_TYPES, type AccountType } from './sandbox-state';

/** Sandbox bound on `expiers_in` (the interface gives none): one week, in minutes. */
export const MAX_EXPIERS_IN_MINUTES = 10_080;
/** Sandbox bound on text fields, generous enough for any real reference or name. */
export const MAX_TEXT_LENGTH = 200;
export const MAX_URL_LENGTH = 2048;

export interface CreateAccountRequest {
  readonly reference: string;
  readonly accountName: string;
  readonly merchantId: string;
  readonly merchantCategory: string;
  readonly type: AccountType;
  readonly amountKobo: number | null;
  readonly expiresInMinutes: number | null;
  readonly callbackUrl: string;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requiredText(body: Readonly<Record<string, unknown>>, field: string): string {
  const value = body[field];
  if (value === undefined || value === null) throw invalidField(field, 'is required');
  if (typeof value !== 'string') throw invalidField(field, 'must be a string');
  if (value.trim() === '') throw invalidField(field, 'must not be empty');
  if (value.length > MAX_TEXT_LENGTH) {
    throw invalidField(field, `must be at most ${MAX_TEXT_LENGTH} characters`);
  }
  // Kept as sent: the reference comes back verbatim as external_reference.
  return value;
}

/** A Naira amount: a JSON number, positive, at most two decimals; returned as kobo. */
export function parseNairaAmount(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw invalidField(field, 'must be a number in Naira');
  }
  if (value <= 0) throw invalidField(field, 'must be greater than 0');
  try {
    return nairaToKobo(value);
  } catch (error) {
    if (error instanceof MoneyError) throw invalidField(field, 'must have at most two decimals');
    throw error;
  }
}

export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/** Validates a POST /virtual/new-account body (section 2.2); messages start with the field. */
export function parseCreateAccountRequest(body: unknown): CreateAccountRequest {
  if (!isRecord(body)) throw new SandboxError('VALIDATION', 'body: must be a JSON object');
  // The misspelling is the real field name; a client "fixing" it must hear so loudly.
  if (Object.hasOwn(body, 'expires_in')) {
    throw invalidField('expires_in', 'is not accepted; the field is spelled expiers_in');
  }
  const reference = requiredText(body, 'reference');
  const accountName = requiredText(body, 'account_name');
  const merchantId = requiredText(body, 'merchant_id');
  const merchantCategory = requiredText(body, 'merchant');
  const typeText = requiredText(body, 'type');
  const type = ACCOUNT_TYPES.find((t) => t === typeText);
  if (type === undefined) throw invalidField('type', `must be one of ${ACCOUNT_TYPES.join(', ')}`);

  const callbackUrl = requiredText(body, 'callback_url');
  if (callbackUrl.length > MAX_URL_LENGTH || !isHttpUrl(callbackUrl)) {
    throw invalidField('callback_url', 'must be an absolute http(s) URL');
  }

  let amountKobo: number | null = null;
  if (type === 'static-flex') {
    if (Object.hasOwn(body, 'amount')) {
      throw invalidField('amount', 'must be omitted for static-flex accounts');
    }
  } else {
    if (body.amount === undefined || body.amount === null) {
      throw invalidField('amount', `is required for ${type} accounts`);
    }
    amountKobo = parseNairaAmount('amount', body.amount);
  }

  // expiers_in is ignored for static and static-flex, as the interface says.
  let expiresInMinutes: number | null = null;
  if (type === 'nonstatic') {
    const value = body.expiers_in;
    if (value === undefined || value === null) {
      throw invalidField('expiers_in', 'is required for nonstatic accounts');
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw invalidField('expiers_in', 'must be a positive whole number of minutes');
    }
    if (value > MAX_EXPIERS_IN_MINUTES) {
      throw invalidField('expiers_in', `must be at most ${MAX_EXPIERS_IN_MINUTES} minutes`);
    }
    expiresInMinutes = value;
  }

  return {
    reference,
    accountName,
    merchantId,
    merchantCategory,
    type,
    amountKobo,
    expiresInMinutes,
    callbackUrl,
  };
}
