/**
 * A till id names one till of a shop. Its letters and digits, upper-cased, are the prefix of
 * every reference the till makes (src/main/provider/references.ts), and the provider's listing
 * is merchant-wide, so that prefix is how each till tells its own money from another till's:
 * two tills of one shop must never share it. Pure: the renderer validates with the same rule.
 */

/** The id every install had before ids were made unique; installs that still have it keep it. */
export const LEGACY_TILL_ID = 'till-1';

export const MAX_TILL_ID_LENGTH = 16;

const TILL_ID_CHARACTERS = /^[A-Za-z0-9-]+$/;

/** The reference prefix of a till id: its letters and digits, upper-cased ('till-a7k2' -> 'TILLA7K2'). */
export function referencePrefix(tillId: string): string {
  return tillId.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}

/** Why a till id cannot be used, in words for the owner, or null when it can. */
export function tillIdProblem(tillId: string): string | null {
  if (tillId === '') return 'Enter a till id';
  if (tillId.length > MAX_TILL_ID_LENGTH) return `At most ${MAX_TILL_ID_LENGTH} characters`;
  if (!TILL_ID_CHARACTERS.test(tillId)) return 'Letters, digits and - only (e.g. till-a7k2)';
  // The prefix is what references carry: an id of dashes alone would give them none.
  if (referencePrefix(tillId) === '') return 'Use at least one letter or digit';
  return null;
}
