import { invalidField, SandboxError } from './errors';
import type { SandboxDb } from './sandbox-db';
import { readSetting, writeSetting } from './sandbox-state';

/**
 * Provider personalities: one switch per place where the provider interface is silent, each value
 * a plausible reading of it (names fixed by CONTRACTS.md). The first value of each is the default
 * and is the sandbox's behaviour before personalities existed.
 */
export const PERSONALITY_CHOICES = {
  /** The status answer for a reference whose transactions all failed. */
  failed_status: ['200', '404', '409'],
  callbacks: ['on', 'never', 'late', 'reordered'],
  listing_order: ['oldest_first', 'newest_first', 'shuffled'],
  /** A payment to a `static` account that differs from its amount. */
  static_mismatch: ['reject', 'accept'],
  /** A transfer into an expired or cancelled nonstatic account. */
  expired_payments: ['refuse', 'accept'],
  /** Section 6 promises no success callback for a wrong amount; a failure notice may still come. */
  failed_callbacks: ['none', 'sent'],
  /**
   * The callback body's encoding and shape (the payload shape is not shown): ours as JSON or as
   * a form, or `foreign_form`, a form whose field names are none of ours.
   */
  callback_format: ['json', 'form', 'foreign_form'],
  /**
   * A second exact transfer into a nonstatic account that is already paid: refused, or
   * accepted with a new session id (the customer paid twice).
   */
  repeat_payments: ['refuse', 'accept'],
} as const;

type Choices = typeof PERSONALITY_CHOICES;
export type ChoiceKey = keyof Choices;

/** Sandbox bounds on the numeric readings. */
export const MAX_BAD_ROW_EVERY = 1_000_000;
export const MAX_CALLBACK_DELAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_CALLBACK_DELAY_MS = 60_000;
export const MAX_PAGE_CAP = 10_000;

export type Personality = { readonly [K in ChoiceKey]: Choices[K][number] } & {
  /** 0: every listing row readable; N: every Nth transaction is served unreadable. */
  readonly bad_row_every: number;
  /** How long `callbacks: "late"` holds each callback, on the sandbox's clock. */
  readonly callback_delay_ms: number;
  /** 0: the listing honours `limit`; N: no page holds more than N rows, whatever `limit` asks. */
  readonly page_cap: number;
};

export type PersonalityKey = keyof Personality;

export const DEFAULT_PERSONALITY: Personality = {
  failed_status: '200',
  callbacks: 'on',
  listing_order: 'oldest_first',
  static_mismatch: 'reject',
  expired_payments: 'refuse',
  failed_callbacks: 'none',
  callback_format: 'json',
  repeat_payments: 'refuse',
  bad_row_every: 0,
  callback_delay_ms: DEFAULT_CALLBACK_DELAY_MS,
  page_cap: 0,
};

const CHOICE_KEYS = Object.keys(PERSONALITY_CHOICES) as ChoiceKey[];
const NUMBER_BOUNDS = {
  bad_row_every: MAX_BAD_ROW_EVERY,
  callback_delay_ms: MAX_CALLBACK_DELAY_MS,
  page_cap: MAX_PAGE_CAP,
} as const;
export const PERSONALITY_KEYS: readonly PersonalityKey[] = [
  ...CHOICE_KEYS,
  ...(Object.keys(NUMBER_BOUNDS) as (keyof typeof NUMBER_BOUNDS)[]),
];

function isChoiceKey(key: string): key is ChoiceKey {
  return Object.hasOwn(PERSONALITY_CHOICES, key);
}

function isNumberKey(key: string): key is keyof typeof NUMBER_BOUNDS {
  return Object.hasOwn(NUMBER_BOUNDS, key);
}

function quoted(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}

/** A choice may come as a JSON number where it looks like one (`"failed_status": 404`). */
function parseChoice<K extends ChoiceKey>(key: K, value: unknown): Personality[K] {
  const allowed: readonly string[] = PERSONALITY_CHOICES[key];
  const text = typeof value === 'number' ? String(value) : value;
  const found = allowed.find((choice) => choice === text);
  if (found === undefined) {
    throw invalidField(key, `must be one of ${quoted(allowed)} (got ${JSON.stringify(value)})`);
  }
  // `found` is one of PERSONALITY_CHOICES[key], which is what Personality[K] is made of.
  return found as Personality[K];
}

/** A whole number, as a JSON number or a string of digits (the command line gives strings). */
function parseWhole(key: keyof typeof NUMBER_BOUNDS, value: unknown): number {
  const number =
    typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  const max = NUMBER_BOUNDS[key];
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0 || number > max) {
    const what =
      key === 'callback_delay_ms' ? 'a whole number' : '0 (off) or a whole number N >= 1';
    throw invalidField(key, `must be ${what}, at most ${max} (got ${JSON.stringify(value)})`);
  }
  return number;
}

/**
 * Validates a partial personality (POST /personality, --personality, the start option). Every
 * refusal names the key and the values it allows.
 */
export function parsePersonalityPatch(body: unknown): Partial<Personality> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SandboxError('VALIDATION', 'body: must be a JSON object of personality keys');
  }
  const patch: PersonalityPatch = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (isChoiceKey(key)) setChoice(patch, key, value);
    else if (isNumberKey(key)) patch[key] = parseWhole(key, value);
    else {
      throw invalidField(
        key,
        `is not a personality key; known keys: ${PERSONALITY_KEYS.join(', ')}`,
      );
    }
  }
  return patch;
}

type PersonalityPatch = { -readonly [K in PersonalityKey]?: Personality[K] };

function setChoice<K extends ChoiceKey>(patch: PersonalityPatch, key: K, value: unknown): void {
  patch[key] = parseChoice(key, value);
}

/** `key=value,key=value` (the --personality flag) to a validated partial personality. */
export function parsePersonalityFlag(text: string): Partial<Personality> {
  const body: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const equals = pair.indexOf('=');
    if (equals <= 0) {
      throw new SandboxError(
        'VALIDATION',
        `personality: "${pair.trim()}" is not key=value (keys: ${PERSONALITY_KEYS.join(', ')})`,
      );
    }
    const key = pair.slice(0, equals).trim();
    if (Object.hasOwn(body, key)) {
      throw invalidField(key, 'is given twice');
    }
    body[key] = pair.slice(equals + 1).trim();
  }
  return parsePersonalityPatch(body);
}

const PERSONALITY_SETTING = 'personality';

/** The personality in force, persisted in the sandbox db so a restart keeps it. */
export class PersonalityStore {
  private value: Personality;

  constructor(private readonly db: SandboxDb) {
    this.value = { ...DEFAULT_PERSONALITY, ...readStored(db) };
  }

  get current(): Personality {
    return this.value;
  }

  apply(patch: Partial<Personality>): Personality {
    this.value = { ...this.value, ...patch };
    writeSetting(this.db, PERSONALITY_SETTING, JSON.stringify(this.value));
    return this.value;
  }

  reset(): Personality {
    this.value = DEFAULT_PERSONALITY;
    writeSetting(this.db, PERSONALITY_SETTING, undefined);
    return this.value;
  }
}

/** What an older or hand-edited db holds: known, valid keys are kept; anything else is dropped. */
function readStored(db: SandboxDb): Partial<Personality> {
  const stored = readSetting(db, PERSONALITY_SETTING);
  if (stored === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored) as unknown;
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  let kept: Partial<Personality> = {};
  for (const [key, value] of Object.entries(parsed as Readonly<Record<string, unknown>>)) {
    try {
      kept = { ...kept, ...parsePersonalityPatch({ [key]: value }) };
    } catch {
      // A value this build no longer knows falls back to the default.
    }
  }
  return kept;
}
