/**
 * The owner's record of what was done about each report exception: an append-only log (migration
 * 005) where the newest entry of a key is its current state.
 */
import type { ExceptionResolution, ResolutionAction } from '#shared/views';
import type { Db } from './database';

/** A resolution, or the owner reopening the case. */
export type RecordedAction = ResolutionAction | 'reopened';

export interface NewResolutionEntry {
  readonly key: string;
  readonly action: RecordedAction;
  readonly bankReference: string | null;
  readonly note: string | null;
  readonly recordedBy: string;
  readonly recordedAt: number;
}

export interface ResolutionEntry extends NewResolutionEntry {
  readonly id: number;
  /** When a newer entry for the same key took over; null for the current one. */
  readonly replacedAt: number | null;
}

const ENTRY_COLUMNS = `id, exception_key AS key, action, bank_reference AS bankReference, note,
  recorded_by AS recordedBy, recorded_at AS recordedAt, replaced_at AS replacedAt`;

/**
 * The current entry of each of a list of keys: one parameter (a JSON array) however many
 * exceptions a report has, each looked up in the partial unique index.
 */
export const CURRENT_ENTRIES_SQL = `SELECT ${ENTRY_COLUMNS} FROM exception_resolutions
  WHERE replaced_at IS NULL AND exception_key IN (SELECT value FROM json_each(?))`;

export const HISTORY_SQL = `SELECT ${ENTRY_COLUMNS} FROM exception_resolutions
  WHERE exception_key = ? ORDER BY id`;

export function currentEntries(db: Db, keys: readonly string[]): Map<string, ResolutionEntry> {
  if (keys.length === 0) return new Map();
  const rows = db.prepare(CURRENT_ENTRIES_SQL).all(JSON.stringify(keys)) as ResolutionEntry[];
  return new Map(rows.map((row) => [row.key, row]));
}

export function currentEntry(db: Db, key: string): ResolutionEntry | null {
  return currentEntries(db, [key]).get(key) ?? null;
}

/**
 * currentEntry for many keys asked one at a time (the CSV's walk, as it meets each case):
 * the statement is prepared once, not once a key.
 */
export function currentEntryReader(db: Db): (key: string) => ResolutionEntry | null {
  const statement = db.prepare(`SELECT ${ENTRY_COLUMNS} FROM exception_resolutions
    WHERE replaced_at IS NULL AND exception_key = ?`);
  return (key) => (statement.get(key) as ResolutionEntry | undefined) ?? null;
}

/** What a key's entry says was done: null for none, or when the case was reopened. */
export function entryResolution(
  entry: ResolutionEntry | undefined | null,
): ExceptionResolution | null {
  if (!entry || entry.action === 'reopened') return null;
  return {
    action: entry.action,
    bankReference: entry.bankReference,
    note: entry.note,
    resolvedBy: entry.recordedBy,
    resolvedAt: entry.recordedAt,
  };
}

/** Every entry of a key, oldest first: what was recorded, replaced and reopened. */
export function resolutionHistory(db: Db, key: string): ResolutionEntry[] {
  return db.prepare(HISTORY_SQL).all(key) as ResolutionEntry[];
}

/** Appends an entry and makes it the key's current one; the previous one is kept, replaced. */
export function appendResolutionEntry(db: Db, entry: NewResolutionEntry): ResolutionEntry {
  return db.transaction((): ResolutionEntry => {
    db.prepare(
      `UPDATE exception_resolutions SET replaced_at = ? WHERE exception_key = ? AND replaced_at IS NULL`,
    ).run(entry.recordedAt, entry.key);
    const id = Number(
      db
        .prepare(
          `INSERT INTO exception_resolutions (exception_key, action, bank_reference, note,
             recorded_by, recorded_at) VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(
          entry.key,
          entry.action,
          entry.bankReference,
          entry.note,
          entry.recordedBy,
          entry.recordedAt,
        ).lastInsertRowid,
    );
    return { ...entry, id, replacedAt: null };
  })();
}

/** Whether an unreadable listing row was first seen at exactly this time (the key of its case). */
export function unreadableRowFirstSeenAt(db: Db, at: number): boolean {
  return (
    db.prepare(`SELECT 1 FROM unreadable_listing_rows WHERE first_seen_at = ? LIMIT 1`).get(at) !==
    undefined
  );
}
