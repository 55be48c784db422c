import { nairaToKobo } from '#shared/money';
import { foreignShape } from './foreign-shape';
import type { CallbackHint } from './types';

/**
 * Lenient reading of a callback body. The interface documents no payload shape, so nothing here
 * is trusted: the result is a hint that lets the sales engine know which sale to confirm with the
 * status endpoint. Pure functions, unit-tested on their own.
 */

export type BodyKind = 'json' | 'form' | 'none' | 'unsupported';

const BYTE_ORDER_MARK = 0xfeff;

export type MalformedReason = 'unsupported-content-type' | 'invalid-json' | 'invalid-form';

export type ParsedCallback =
  | { readonly parseStatus: 'ok'; readonly hint: CallbackHint | null }
  | { readonly parseStatus: 'empty'; readonly hint: null }
  | { readonly parseStatus: 'malformed'; readonly hint: null; readonly reason: MalformedReason };

/** JSON (also `+json` and text/json) or form-encoded, charset and other parameters ignored. */
export function classifyContentType(header: string | null | undefined): BodyKind {
  if (header === 'application/json') return 'json'; // most callbacks: no split, trim or case
  const media = (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (media === '') return 'none';
  if (media === 'application/json' || media === 'text/json' || media.endsWith('+json')) {
    return 'json';
  }
  if (media === 'application/x-www-form-urlencoded') return 'form';
  return 'unsupported';
}

export function parseCallbackBody(body: string, contentType: string | null): ParsedCallback {
  const text = body.charCodeAt(0) === BYTE_ORDER_MARK ? body.slice(1) : body;
  if (text.trim() === '') return { parseStatus: 'empty', hint: null };
  const kind = classifyContentType(contentType);
  switch (kind) {
    case 'unsupported':
      return malformed('unsupported-content-type');
    case 'json':
      return fromJson(text) ?? malformed('invalid-json');
    case 'none':
      // A missing content type is accepted only when the body is JSON after all.
      return fromJson(text) ?? malformed('unsupported-content-type');
    case 'form': {
      // Some senders label JSON as a form; take it as JSON rather than as one odd form key.
      const asJson = text.trimStart().startsWith('{') ? fromJson(text) : null;
      if (asJson) return asJson;
      const fields = parseForm(text);
      return fields
        ? { parseStatus: 'ok', hint: withForeignShape(extractHint(fields, null), fields) }
        : malformed('invalid-form');
    }
  }
}

function malformed(reason: MalformedReason): ParsedCallback {
  return { parseStatus: 'malformed', hint: null, reason };
}

function fromJson(text: string): ParsedCallback | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return { parseStatus: 'ok', hint: withForeignShape(extractHint(value, text), value) };
}

/**
 * A body that names nothing the till can look a sale up by (no reference, session id or
 * account number) is of a shape the till does not recognise: its values go with the hint.
 */
function withForeignShape(hint: CallbackHint | null, body: unknown): CallbackHint | null {
  if (hint?.reference || hint?.sessionId || hint?.accountNumber) return hint;
  const foreign = foreignShape(body);
  if (foreign.fields.length === 0) return hint;
  return { ...hint, foreign };
}

type Fields = Record<string, unknown>;

/** `a=1&data[b]=2` → { a: '1', data: { b: '2' } }; null when a pair is not `key=value`. */
export function parseForm(text: string): Fields | null {
  // Null-prototype objects: a key such as `__proto__[x]` must not reach Object.prototype.
  const out: Fields = Object.create(null) as Fields;
  for (const pair of text.trim().split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    if (equals <= 0) return null;
    const key = decodeFormPart(pair.slice(0, equals));
    const value = decodeFormPart(pair.slice(equals + 1));
    if (key === null || value === null) return null;
    const nested = /^([^[\]]+)\[([^[\]]+)\]$/.exec(key);
    if (nested?.[1] !== undefined && nested[2] !== undefined) {
      const parent = Object.hasOwn(out, nested[1]) ? out[nested[1]] : undefined;
      const scope: Fields = isFields(parent) ? parent : (Object.create(null) as Fields);
      if (!Object.hasOwn(scope, nested[2])) scope[nested[2]] = value;
      out[nested[1]] = scope;
    } else if (!Object.hasOwn(out, key)) {
      out[key] = value;
    }
  }
  return Object.keys(out).length > 0 ? out : null;
}

function decodeFormPart(part: string): string | null {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const REFERENCE_KEYS = ['external_reference', 'externalReference', 'reference'] as const;
const SESSION_KEYS = ['session_id', 'sessionId', 'sessionID'] as const;
const AMOUNT_KEYS = ['amount'] as const;
const STATUS_KEYS = ['status'] as const;
const ACCOUNT_KEYS = ['account_number', 'accountNumber', 'account_no'] as const;
/** NUBAN account numbers have 10 digits; a sender that sent one as a number lost leading zeros. */
const NUBAN_LENGTH = 10;

/**
 * Picks the known fields from the top level, then from `data`, then from `payload`. A field
 * whose value is unusable (wrong type, an amount that is not exact Naira, a session id that lost
 * precision) is left out; the raw body is stored anyway. `rawJson` is the JSON text, used to
 * recover an id sent as a number too long for a double.
 */
export function extractHint(value: unknown, rawJson: string | null): CallbackHint | null {
  if (!isFields(value)) return null;
  const scopes = [value, ownField(value, 'data'), ownField(value, 'payload')].filter(isFields);
  const hint: {
    reference?: string;
    sessionId?: string;
    amountKobo?: number;
    status?: string;
    accountNumber?: string;
  } = {};
  const reference = pick(scopes, REFERENCE_KEYS, readReference);
  if (reference !== undefined) hint.reference = reference;
  const sessionId = pick(scopes, SESSION_KEYS, readSessionId, rawJson);
  if (sessionId !== undefined) hint.sessionId = sessionId;
  const amountKobo = pick(scopes, AMOUNT_KEYS, readAmountKobo);
  if (amountKobo !== undefined) hint.amountKobo = amountKobo;
  const status = pick(scopes, STATUS_KEYS, readStatus);
  if (status !== undefined) hint.status = status;
  const accountNumber = pick(scopes, ACCOUNT_KEYS, readAccountNumber);
  if (accountNumber !== undefined) hint.accountNumber = accountNumber;
  return reference !== undefined ||
    sessionId !== undefined ||
    amountKobo !== undefined ||
    status !== undefined ||
    accountNumber !== undefined
    ? hint
    : null;
}

function ownField(fields: Fields, key: string): unknown {
  return Object.hasOwn(fields, key) ? fields[key] : undefined;
}

/** The first usable value of `keys`, key by key, each in every scope. Readers are module-level. */
function pick<T>(
  scopes: readonly Fields[],
  keys: readonly string[],
  read: (value: unknown, key: string, rawJson: string | null) => T | undefined,
  rawJson: string | null = null,
): T | undefined {
  for (const key of keys) {
    for (const scope of scopes) {
      if (!Object.hasOwn(scope, key)) continue;
      const found = read(scope[key], key, rawJson);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function readText(value: string, maxLength: number): string | undefined {
  const text = value.trim();
  // Control characters have no place in an id or a status and would only confuse logs.
  // eslint-disable-next-line no-control-regex
  if (text === '' || text.length > maxLength || /[\u0000-\u001f\u007f]/.test(text)) {
    return undefined;
  }
  return text;
}

function readReference(value: unknown): string | undefined {
  return readId(value, 256);
}

function readStatus(value: unknown): string | undefined {
  return typeof value === 'string' ? readText(value, 64) : undefined;
}

function readId(value: unknown, maxLength: number): string | undefined {
  if (typeof value === 'string') return readText(value, maxLength);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return undefined;
}

function readSessionId(value: unknown, key: string, rawJson: string | null): string | undefined {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    // A 30-digit NIP session id sent as a JSON number is already rounded by JSON.parse.
    return rawJson === null ? undefined : recoverIntegerLiteral(rawJson, key);
  }
  return readId(value, 128);
}

/**
 * The exact digits of `"key": 123…` in the JSON text, when the key occurs exactly once (so the
 * literal cannot belong to another object) and its value is a plain non-negative integer.
 */
export function recoverIntegerLiteral(rawJson: string, key: string): string | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const occurrences = [...rawJson.matchAll(new RegExp(`"${escaped}"\\s*:\\s*([^,}\\]\\s]*)`, 'g'))];
  if (occurrences.length !== 1) return undefined;
  const literal = occurrences[0]?.[1] ?? '';
  return /^\d{1,128}$/.test(literal) ? literal : undefined;
}

function readAmountKobo(value: unknown): number | undefined {
  let amount: number | string;
  if (typeof value === 'number') {
    amount = value;
  } else if (typeof value === 'string') {
    const text = value.trim();
    // Thousands separators ("1,500.00") are common in human-facing systems; nothing else is.
    amount = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text) ? text.replace(/,/g, '') : text;
  } else {
    return undefined;
  }
  try {
    const kobo = nairaToKobo(amount);
    return kobo >= 0 ? kobo : undefined;
  } catch {
    return undefined;
  }
}

function readAccountNumber(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) return undefined;
    const digits = String(value);
    return digits.length < NUBAN_LENGTH ? digits.padStart(NUBAN_LENGTH, '0') : digits;
  }
  return readId(value, 64);
}
