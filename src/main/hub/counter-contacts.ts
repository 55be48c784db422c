/**
 * Each counter's last contact: kept in memory on every request and written to the database at
 * most every CONTACT_WRITE_MS (and on flush, before the database closes). A switch of
 * environment (another database) starts a new book.
 */
import type { Db } from '#main/store/database';
import { recordPairedCounterContact } from '#main/store/paired-counters-repo';

/** A counter's last contact reaches the database at most this often (each request touches it). */
export const CONTACT_WRITE_MS = 30_000;

export interface CounterContacts {
  /** The newest contact seen of each counter of this database (in memory). */
  seen(db: Db): ReadonlyMap<number, number>;
  /** A contact now: kept, and written when the last write is old enough. */
  touch(db: Db, counterId: number, at: number): void;
  /** Marks a contact without writing it (a counter just paired). */
  note(db: Db, counterId: number, at: number): void;
  /** Writes the last contacts not written yet. */
  flush(): void;
}

/** Last contacts of one database's counters: the newest seen, and the newest written. */
interface ContactBook {
  readonly db: Db;
  readonly seen: Map<number, number>;
  readonly written: Map<number, number>;
}

export function createCounterContacts(): CounterContacts {
  let contacts: ContactBook | null = null;

  /** The contact book of the database in use (a switch of environment starts a new one). */
  function bookOf(db: Db): ContactBook {
    if (contacts?.db !== db) contacts = { db, seen: new Map(), written: new Map() };
    return contacts;
  }

  return {
    seen: (db) => bookOf(db).seen,
    note(db, counterId, at) {
      bookOf(db).seen.set(counterId, at);
    },
    touch(db, counterId, at) {
      const book = bookOf(db);
      book.seen.set(counterId, at);
      const written = book.written.get(counterId);
      if (written === undefined || at - written >= CONTACT_WRITE_MS) {
        recordPairedCounterContact(db, counterId, at);
        book.written.set(counterId, at);
      }
    },
    flush() {
      if (!contacts) return;
      const { db, seen, written } = contacts;
      for (const [counterId, at] of seen) {
        if ((written.get(counterId) ?? -Infinity) < at) {
          recordPairedCounterContact(db, counterId, at);
          written.set(counterId, at);
        }
      }
    },
  };
}
