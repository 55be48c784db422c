/**
 * The shop hub's paired counters (migration 007). A counter's token is looked up by its SHA-256
 * on every request from that counter: TOKEN_LOOKUP_SQL is a hot query with its plan tested.
 */
import type { Db } from './database';

export interface PairedCounterRow {
  readonly id: number;
  readonly name: string;
  readonly tillId: string;
  readonly pairedAt: number;
  /** As last written (the hub keeps a fresher one in memory, written at most every 30 s). */
  readonly lastContactAt: number | null;
  readonly revokedAt: number | null;
}

export interface NewPairedCounter {
  readonly name: string;
  readonly tillId: string;
  /** SHA-256 of the token, lower-case hex (the token itself is never stored). */
  readonly tokenSha256: string;
}

const COUNTER_COLUMNS = `id, name, till_id AS tillId, paired_at AS pairedAt,
  last_contact_at AS lastContactAt, revoked_at AS revokedAt`;

export const TOKEN_LOOKUP_SQL = `SELECT ${COUNTER_COLUMNS} FROM paired_counters
  WHERE token_sha256 = ?`;

export function insertPairedCounter(
  db: Db,
  counter: NewPairedCounter,
  now: number,
): PairedCounterRow {
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO paired_counters (name, till_id, token_sha256, paired_at) VALUES (?, ?, ?, ?)`,
    )
    .run(counter.name, counter.tillId, counter.tokenSha256, now);
  return getPairedCounterOrThrow(db, Number(lastInsertRowid));
}

export function getPairedCounter(db: Db, id: number): PairedCounterRow | undefined {
  return db.prepare(`SELECT ${COUNTER_COLUMNS} FROM paired_counters WHERE id = ?`).get(id) as
    PairedCounterRow | undefined;
}

function getPairedCounterOrThrow(db: Db, id: number): PairedCounterRow {
  const row = getPairedCounter(db, id);
  if (!row) throw new Error(`Paired counter ${id} does not exist`);
  return row;
}

export function getPairedCounterByTokenHash(
  db: Db,
  tokenSha256: string,
): PairedCounterRow | undefined {
  return db.prepare(TOKEN_LOOKUP_SQL).get(tokenSha256) as PairedCounterRow | undefined;
}

/** Every counter ever paired here, newest first (revoked ones too: they are listed for the record). */
export function listPairedCounters(db: Db): PairedCounterRow[] {
  return db
    .prepare(`SELECT ${COUNTER_COLUMNS} FROM paired_counters ORDER BY id DESC`)
    .all() as PairedCounterRow[];
}

/** Every token hash ever issued here, revoked counters' included (for the log's redactor). */
export function listPairedCounterTokenHashes(db: Db): string[] {
  return (
    db.prepare(`SELECT token_sha256 AS hash FROM paired_counters`).all() as { hash: string }[]
  ).map((row) => row.hash);
}

export function renamePairedCounter(db: Db, id: number, name: string): void {
  db.prepare(`UPDATE paired_counters SET name = ? WHERE id = ?`).run(name, id);
}

export function setPairedCounterTillId(db: Db, id: number, tillId: string): void {
  db.prepare(`UPDATE paired_counters SET till_id = ? WHERE id = ?`).run(tillId, id);
}

/** Marks the counter revoked; false when it already was (revoking twice keeps the first time). */
export function revokePairedCounter(db: Db, id: number, now: number): boolean {
  return (
    db
      .prepare(`UPDATE paired_counters SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`)
      .run(now, id).changes > 0
  );
}

export function recordPairedCounterContact(db: Db, id: number, at: number): void {
  db.prepare(
    `UPDATE paired_counters SET last_contact_at = ?
     WHERE id = ? AND (last_contact_at IS NULL OR last_contact_at < ?)`,
  ).run(at, id, at);
}
