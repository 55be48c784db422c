/**
 * Till ids in the settings file: a unique one made on first start, and the ids of older
 * installs brought under today's rule without changing the reference prefix their past
 * sales carry (the report tells this till's money from other tills' by that prefix).
 */
import { randomBytes } from 'node:crypto';
import { LEGACY_TILL_ID, tillIdProblem } from '#shared/till-id';
import type { SettingsFile } from './settings-store';

/** Crockford's base32 (no I, L, O or U): an id read aloud or copied by hand is not misheard. */
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * `till-` and 4 random characters: about a million ids, so the ten tills of a shop share one
 * about once in 20,000 shops (and the owner can change it).
 */
export function generateTillId(
  random: (size: number) => Uint8Array = (size) => new Uint8Array(randomBytes(size)),
): string {
  const bytes = random(4);
  let suffix = '';
  // 256 is a multiple of 32, so the low five bits are uniform.
  for (let i = 0; i < 4; i++) suffix += CROCKFORD[(bytes[i] ?? 0) & 31];
  return `till-${suffix}`;
}

/**
 * An older install's id under today's rule (letters, digits and '-', at most 16), or null when
 * nothing of it can be kept. Builds before till ids were checked this way allowed '_' and 40
 * characters and cut the reference prefix to 16 letters and digits; the id chosen here keeps
 * that same prefix (compared without case), so the till's past references stay its own.
 */
export function migrateTillId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (tillIdProblem(trimmed) === null) return trimmed;
  const dashed = trimmed.replace(/_/g, '-');
  if (tillIdProblem(dashed) === null) return dashed;
  const prefix = trimmed.replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
  return prefix === '' ? null : prefix.toLowerCase();
}

function shopOf(file: SettingsFile): Record<string, unknown> | null {
  const shop = file['shop'];
  return typeof shop === 'object' && shop !== null && !Array.isArray(shop)
    ? (shop as Record<string, unknown>)
    : null;
}

/**
 * The till id a settings file stands for, under today's rule: the one it holds, the old default
 * when it holds none (the schema's default then), or null when it holds one that is unusable.
 */
export function tillIdOfFile(file: SettingsFile): string | null {
  const tillId = shopOf(file)?.['tillId'];
  return tillId === undefined ? LEGACY_TILL_ID : migrateTillId(tillId);
}

export interface TillIdStart {
  /** No settings file existed: this is the till's first start. */
  readonly firstStart: boolean;
  /**
   * The settings file was unusable and was moved aside: the id read from it (null when it had
   * none usable). Its past references carry that id, so the fresh file keeps it.
   */
  readonly carriedOver?: string | null;
  readonly random?: (size: number) => Uint8Array;
}

/**
 * The settings file as it should be before it is validated, or null when it needs no change:
 * a new unique id on first start (or after a file with no usable id was moved aside), the id
 * carried over from a file that was moved aside, or an older install's id brought under today's
 * rule. A file with no id at all is an older install on the old default: it keeps it.
 */
export function settleTillId(file: SettingsFile, start: TillIdStart): SettingsFile | null {
  const shop = shopOf(file);
  const current = shop?.['tillId'];
  const fresh = () => generateTillId(start.random);
  let wanted: string | null;
  if (start.firstStart) wanted = fresh();
  else if (start.carriedOver !== undefined) wanted = start.carriedOver ?? fresh();
  else if (current === undefined) wanted = null;
  // Nothing of the old id can be kept (it had no letter or digit): a unique one is better.
  else wanted = migrateTillId(current) ?? fresh();
  if (wanted === null || wanted === current) return null;
  return { ...file, shop: { ...(shop ?? {}), tillId: wanted } };
}
