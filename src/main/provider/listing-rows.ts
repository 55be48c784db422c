/**
 * The provider's listing rows read one by one: a row that does not parse is set aside with its
 * position, its raw text (cut to MAX_UNREADABLE_RAW_CHARS) and a value-free problem, so that one
 * bad row costs neither its page nor the sync.
 */
import type { z } from 'zod';
import type { TransactionPage, TransactionRecord, UnreadableListingRow } from './schemas';

/** Longest raw text kept of a listing row that could not be read. */
export const MAX_UNREADABLE_RAW_CHARS = 4096;

const LISTING_ROW_FIELDS = [
  'amount',
  'status',
  'session_id',
  'external_reference',
  'date',
] as const;

/**
 * What is wrong with a field, in words that hold no value: a row problem is stored and shown,
 * and the zod messages of the money and date schemas quote the value they refused.
 */
const LISTING_FIELD_PROBLEM: Readonly<Record<(typeof LISTING_ROW_FIELDS)[number], string>> = {
  amount: 'not a Naira amount (a number, 0 or more, at most 2 decimals)',
  status: 'not text',
  session_id: 'not a string of digits',
  external_reference: 'not text',
  date: "not a provider date ('YYYY-MM-DD HH:MM:SS', a real day and time)",
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The row as JSON text, capped; a value JSON cannot hold becomes its String(). */
function rawRowText(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_UNREADABLE_RAW_CHARS ? text.slice(0, MAX_UNREADABLE_RAW_CHARS) : text;
}

/** A value-free account of why `value` is not a listing row. */
export function describeListingRowProblem(value: unknown, error: z.ZodError | null): string {
  if (!isPlainObject(value)) {
    return `row: ${value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value}, not an object`;
  }
  const problems = new Map<string, string>();
  for (const field of LISTING_ROW_FIELDS) {
    if (value[field] === undefined || value[field] === null) problems.set(field, 'missing');
  }
  for (const issue of error?.issues ?? []) {
    const field = issue.path[0];
    const known = LISTING_ROW_FIELDS.find((name) => name === field);
    if (known && !problems.has(known)) problems.set(known, LISTING_FIELD_PROBLEM[known]);
    if (!known && !problems.has('row')) problems.set('row', 'not readable');
  }
  if (problems.size === 0) problems.set('row', 'not readable');
  return [...problems].map(([field, problem]) => `${field}: ${problem}`).join('; ');
}

/**
 * Reads each row of a listing page on its own: readable rows in order, the others set aside
 * with their position (`offset` + index), raw text and a value-free problem.
 */
export function splitListingRows(
  data: { readonly count: number; readonly transactions: readonly unknown[] },
  rowSchema: z.ZodType<TransactionRecord>,
  offset: number,
): TransactionPage {
  const transactions: TransactionRecord[] = [];
  const unreadable: UnreadableListingRow[] = [];
  data.transactions.forEach((value, index) => {
    const parsed = rowSchema.safeParse(value);
    if (parsed.success) {
      transactions.push(parsed.data);
      return;
    }
    unreadable.push({
      position: offset + index,
      raw: rawRowText(value),
      problem: describeListingRowProblem(value, parsed.error),
    });
  });
  return { count: data.count, transactions, unreadable };
}
