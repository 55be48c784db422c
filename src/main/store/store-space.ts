import type { StoreSpaceView } from '#shared/views';
import type { Db } from './database';
import { AppError } from '#shared/errors';

/** What the cashier reads when the store has no room (banner, refused sale, alert). */
export const DISK_FULL_MESSAGE =
  "The till's disk is full: free some space. Open sales are still being checked; new sales can start again once there is room.";

/** The store could not write: SQLite answered SQLITE_FULL (a full disk, or the size limit). */
export class StoreFullError extends AppError<'DISK_FULL'> {
  constructor(cause?: unknown) {
    super('DISK_FULL', DISK_FULL_MESSAGE, cause === undefined ? {} : { cause });
    this.name = 'StoreFullError';
  }
}

/** SQLITE_FULL, from better-sqlite3 (its SqliteError carries the extended code name). */
export function isStoreFullError(error: unknown): boolean {
  if (error instanceof StoreFullError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_FULL');
}

export type { StoreSpaceView };

export type StoreSpaceChange =
  | { readonly kind: 'full'; readonly since: number }
  | { readonly kind: 'recovered'; readonly since: number; readonly at: number };

/**
 * Whether the store can write. It becomes full when a write answers SQLITE_FULL and stays full
 * until a write that needs room commits: while full, every guarded transaction first reserves
 * room (reserveRoom), so a write that squeezes into a half-empty page does not end full mode
 * while the next one fails. One rule for the whole till: it leaves full mode all at once.
 */
export interface StoreSpace {
  view(): StoreSpaceView;
  isFull(): boolean;
  /**
   * One write transaction. While full, it reserves room first. SQLITE_FULL enters full mode and
   * throws StoreFullError (nothing of fn is kept); a commit while full ends full mode.
   */
  transaction<T>(fn: () => T): T;
  /** A write elsewhere failed: SQLITE_FULL enters full mode. True when it was SQLITE_FULL. */
  noteFailure(error: unknown): boolean;
  /** Tries a write that needs room (reserveRoom alone). True when the store can write. */
  probe(): boolean;
  subscribe(listener: (change: StoreSpaceChange) => void): () => void;
}

/** How many pages a probe must be able to add beyond the store's own free pages. */
const PROBE_PAGES = 2;
/** Free pages past this many are room enough: the probe stays small on a store full of holes. */
const PROBE_FREE_PAGES_CAP = 62;

/**
 * Proves that the store can grow: a row big enough to need the free pages plus two new ones,
 * written and deleted in the caller's transaction (so it never outlives it). It goes into
 * callback_log, whose rows nothing references, with a parse status no reader selects.
 */
export function reserveRoom(db: Db): void {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  const bytes = (Math.min(free, PROBE_FREE_PAGES_CAP) + PROBE_PAGES) * pageSize;
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO callback_log (received_at, method, headers, body, parse_status)
       VALUES (0, 'PROBE', '{}', hex(zeroblob(?)), 'space-probe')`,
    )
    .run(Math.ceil(bytes / 2));
  db.prepare(`DELETE FROM callback_log WHERE id = ?`).run(lastInsertRowid);
}

export function createStoreSpace(db: Db, now: () => number): StoreSpace {
  let since: number | null = null;
  const listeners = new Set<(change: StoreSpaceChange) => void>();

  function tell(change: StoreSpaceChange): void {
    for (const listener of [...listeners]) listener(change);
  }

  function enterFull(): void {
    if (since !== null) return;
    since = now();
    tell({ kind: 'full', since });
  }

  function leaveFull(): void {
    if (since === null) return;
    const was = since;
    since = null;
    tell({ kind: 'recovered', since: was, at: now() });
  }

  function noteFailure(error: unknown): boolean {
    if (!isStoreFullError(error)) return false;
    enterFull();
    return true;
  }

  function transaction<T>(fn: () => T): T {
    const wasFull = since !== null;
    let result: T;
    try {
      result = db.transaction(() => {
        if (wasFull) reserveRoom(db);
        return fn();
      })();
    } catch (error) {
      if (noteFailure(error)) throw new StoreFullError(error);
      throw error;
    }
    if (wasFull) leaveFull();
    return result;
  }

  return {
    view: () => ({ full: since !== null, since }),
    isFull: () => since !== null,
    transaction,
    noteFailure,
    probe() {
      try {
        db.transaction(() => reserveRoom(db))();
      } catch (error) {
        if (noteFailure(error)) return false;
        throw error;
      }
      leaveFull();
      return true;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The limit SQLite had before limitStoreGrowth, per connection (PRAGMA max_page_count is). */
const limitsBefore = new WeakMap<Db, number>();

/**
 * A full disk, simulated on the real file (--dev-clock mode and tests): the store may not grow
 * past the pages it has now. liftStoreGrowthLimit gives the old limit back: space returns.
 */
export function limitStoreGrowth(db: Db): void {
  if (!limitsBefore.has(db)) {
    limitsBefore.set(db, db.pragma('max_page_count', { simple: true }) as number);
  }
  const pages = db.pragma('page_count', { simple: true }) as number;
  db.pragma(`max_page_count = ${Math.trunc(pages)}`);
}

export function liftStoreGrowthLimit(db: Db): void {
  const before = limitsBefore.get(db);
  if (before === undefined) return;
  limitsBefore.delete(db);
  db.pragma(`max_page_count = ${Math.trunc(before)}`);
}
