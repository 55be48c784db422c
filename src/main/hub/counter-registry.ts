/**
 * The paired counters of this hub, on top of the store: pairing (a token, of which only the
 * SHA-256 is kept), the rules for names and till ids, and revoking. State is the database passed
 * in; nothing here is remembered between calls.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CounterIdentity } from '#shared/hub';
import { referencePrefix, tillIdProblem } from '#shared/till-id';
import { generateTillId } from '#main/settings/till-id';
import type { Db } from '#main/store/database';
import {
  getPairedCounter,
  getPairedCounterByTokenHash,
  insertPairedCounter,
  listPairedCounters,
  renamePairedCounter,
  revokePairedCounter,
  setPairedCounterTillId,
  type PairedCounterRow,
} from '#main/store/paired-counters-repo';
import { HubError } from './hub-errors';

export const MAX_COUNTER_NAME_LENGTH = 40;
/** 128 bits as base64url: what a counter's token and a pairing code look like. */
export const TOKEN_LENGTH = 22;
export const TOKEN_ALPHABET = /[A-Za-z0-9_-]/;
const TOKEN_SHAPE = new RegExp(`^${TOKEN_ALPHABET.source}{${TOKEN_LENGTH}}$`);

export type RandomBytes = (size: number) => Uint8Array;
export const cryptoRandom: RandomBytes = (size) => new Uint8Array(randomBytes(size));

export function tokenSha256(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether a string has the shape of a token or code this hub makes (else: no lookup at all). */
export function hasTokenShape(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

export function identityOf(row: PairedCounterRow): CounterIdentity {
  return { id: row.id, name: row.name, tillId: row.tillId };
}

export function checkedCounterName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > MAX_COUNTER_NAME_LENGTH) {
    throw new HubError(
      'COUNTER_NAME_INVALID',
      `Name the counter (at most ${MAX_COUNTER_NAME_LENGTH} characters), e.g. "Front counter".`,
      'name',
    );
  }
  return trimmed;
}

/**
 * Whether `tillId` may be a counter's: today's till id rule, and a reference prefix no other
 * till of this shop has (the hub's own, or a live counter's). A revoked counter's id is free.
 */
function checkedTillId(db: Db, tillId: string, hubTillId: string, counterId: number): string {
  const trimmed = tillId.trim();
  const problem = tillIdProblem(trimmed);
  if (problem !== null) throw new HubError('TILL_ID_INVALID', problem, 'tillId');
  const prefix = referencePrefix(trimmed);
  if (prefix === referencePrefix(hubTillId)) {
    throw new HubError(
      'TILL_ID_TAKEN',
      `The hub itself is till ${hubTillId}: each till of the shop needs its own id.`,
      'tillId',
    );
  }
  const holder = listPairedCounters(db).find(
    (row) =>
      row.id !== counterId && row.revokedAt === null && referencePrefix(row.tillId) === prefix,
  );
  if (holder) {
    throw new HubError(
      'TILL_ID_TAKEN',
      `${holder.name} is till ${holder.tillId} already: each till of the shop needs its own id.`,
      'tillId',
    );
  }
  return trimmed;
}

/**
 * A till id no till of this shop has had: not the hub's, and no counter's, revoked ones
 * included (a fresh counter starts with no sales of its own).
 */
function freshTillId(db: Db, hubTillId: string, random: RandomBytes): string {
  const taken = new Set([
    referencePrefix(hubTillId),
    ...listPairedCounters(db).map((row) => referencePrefix(row.tillId)),
  ]);
  // About a million ids: a clash is rare, ten clashes in a row would mean a broken random source.
  for (let attempt = 0; attempt < 10; attempt++) {
    const candidate = generateTillId(random);
    if (!taken.has(referencePrefix(candidate))) return candidate;
  }
  throw new Error('Could not find a free till id for the new counter');
}

/** A new counter of this name: its own till id and a token shown this once. */
export function pairCounter(
  db: Db,
  request: { readonly name: string; readonly hubTillId: string; readonly now: number },
  random: RandomBytes = cryptoRandom,
): { readonly token: string; readonly counter: CounterIdentity } {
  const name = checkedCounterName(request.name);
  return db.transaction(() => {
    const tillId = freshTillId(db, request.hubTillId, random);
    const token = Buffer.from(random(16).subarray(0, 16)).toString('base64url');
    if (!hasTokenShape(token)) throw new Error('The random source returned too few bytes');
    const row = insertPairedCounter(
      db,
      { name, tillId, tokenSha256: tokenSha256(token) },
      request.now,
    );
    return { token, counter: identityOf(row) };
  })();
}

export function findCounter(db: Db, counterId: number): PairedCounterRow {
  const row = getPairedCounter(db, counterId);
  if (!row) {
    throw new HubError('COUNTER_NOT_FOUND', 'This hub has no such counter.', 'counterId');
  }
  return row;
}

/** Renames a counter or gives it another till id (its past sales keep the one they had). */
export function updateCounter(
  db: Db,
  counterId: number,
  change: { readonly name?: string; readonly tillId?: string },
  hubTillId: string,
): CounterIdentity {
  return db.transaction(() => {
    const row = findCounter(db, counterId);
    if (row.revokedAt !== null) {
      throw new HubError(
        'COUNTER_REVOKED',
        `${row.name} was revoked and cannot be changed. Pair the device again as a new counter.`,
        'counterId',
      );
    }
    if (change.name !== undefined)
      renamePairedCounter(db, counterId, checkedCounterName(change.name));
    if (change.tillId !== undefined && change.tillId.trim() !== row.tillId) {
      setPairedCounterTillId(db, counterId, checkedTillId(db, change.tillId, hubTillId, counterId));
    }
    return identityOf(findCounter(db, counterId));
  })();
}

/** Revokes a counter (its token is refused from now on); true when it was live until now. */
export function revokeCounter(db: Db, counterId: number, now: number): boolean {
  return db.transaction(() => {
    findCounter(db, counterId);
    return revokePairedCounter(db, counterId, now);
  })();
}

export type TokenOwner =
  | { readonly kind: 'counter'; readonly row: PairedCounterRow }
  | { readonly kind: 'revoked'; readonly counterId: number }
  | { readonly kind: 'unknown' };

export function counterOfToken(db: Db, token: string): TokenOwner {
  if (!hasTokenShape(token)) return { kind: 'unknown' };
  const row = getPairedCounterByTokenHash(db, tokenSha256(token));
  if (!row) return { kind: 'unknown' };
  return row.revokedAt === null ? { kind: 'counter', row } : { kind: 'revoked', counterId: row.id };
}
