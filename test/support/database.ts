import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, type Db } from '#main/store/database';
import { migrate } from '#main/store/migrate';
import { migrations } from '#main/store/migrations';
import {
  insertPendingAccount,
  markAccountActive,
  type AccountRow,
} from '#main/store/accounts-repo';

/** A real SQLite file in a fresh temporary folder, migrated to the latest schema. */
export function createTestDb(): { db: Db; path: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'till-db-')), 'till.sqlite');
  return { db: openDatabase({ path }), path };
}

/** A database file brought to exactly `version`, for migration tests. */
export function createDbAtVersion(version: number): { db: Db; path: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'till-db-')), 'till.sqlite');
  const db = new Database(path);
  migrate(db, migrations.slice(0, version));
  return { db, path };
}

/** The query plan's detail lines, to check that a hot query uses an index. */
export function explain(db: Db, sql: string, ...params: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
    (row) => row.detail,
  );
}

/** An active outage account (static-flex, purpose 'outage') kept in the store, as made online. */
export function storeOutageAccount(db: Db): AccountRow {
  const pending = insertPendingAccount(
    db,
    {
      type: 'static-flex',
      purpose: 'outage',
      reference: 'TT-OUTAGE-1',
      amountKobo: null,
      expiryMinutes: null,
      callbackUrl: null,
    },
    1,
  );
  return markAccountActive(
    db,
    pending.id,
    {
      providerReference: 'P1',
      accountNumber: '9000000001',
      accountName: 'Shop',
      bank: 'Bank',
      expiresAt: null,
    },
    2,
  );
}
