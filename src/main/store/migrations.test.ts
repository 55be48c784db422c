import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { DatabaseVersionError, migrate, schemaVersion, type Migration } from './migrate';
import { migrations } from './migrations';
import { createDbAtVersion, createTestDb } from '#support/database';

function tables(db: Database.Database): string[] {
  return (
    db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as {
      name: string;
    }[]
  ).map((row) => row.name);
}

describe('migrations', () => {
  it('are numbered 1..n in order', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_m, i) => i + 1));
  });

  it('001-initial creates every table with integer money and a unique session_id', () => {
    const { db } = createDbAtVersion(1);
    expect(schemaVersion(db)).toBe(1);
    expect(tables(db)).toEqual([
      'alerts',
      'callback_log',
      'inflows',
      'sale_events',
      'sales',
      'sync_runs',
      'virtual_accounts',
    ]);
    const insert = db.prepare(
      `INSERT INTO inflows (session_id, amount_kobo, status, source, last_source, first_seen_at, updated_at)
       VALUES (?, ?, 'success', 'callback', 'callback', 0, 0)`,
    );
    insert.run('000000000000000000000000000001', 150000);
    expect(() => insert.run('000000000000000000000000000001', 150000)).toThrow(/UNIQUE/);
    // STRICT tables refuse a fractional kobo amount instead of storing a float.
    expect(() => insert.run('000000000000000000000000000002', 1500.5)).toThrow(/INTEGER/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO sales (amount_kobo, state, reference, created_at, updated_at) VALUES (0, 'creating', 'r', 0, 0)`,
        )
        .run(),
    ).toThrow(/CHECK/);
  });

  it('opens with WAL, synchronous=FULL, foreign keys and a busy timeout', () => {
    const { db } = createTestDb();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(() =>
      db
        .prepare(
          `INSERT INTO sale_events (sale_id, at, to_state, cause) VALUES (999, 0, 'paid', 'x')`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });

  it('applies all pending steps in one transaction: a failing step leaves the database untouched', () => {
    const { db } = createDbAtVersion(1);
    const broken: Migration[] = [
      ...migrations,
      {
        version: migrations.length + 1,
        name: 'adds a table',
        up: (d) => d.exec('CREATE TABLE extra (x INTEGER)'),
      },
      {
        version: migrations.length + 2,
        name: 'fails',
        up: (d) => d.exec('ALTER TABLE nowhere ADD COLUMN y'),
      },
    ];
    expect(() => migrate(db, broken)).toThrow(/nowhere/);
    // Every pending step rolled back, the shipped ones after 001 included.
    expect(schemaVersion(db)).toBe(1);
    expect(tables(db)).not.toContain('extra');
  });

  it('refuses a database from a newer version with a clear message', () => {
    const { db, path } = createTestDb();
    db.pragma(`user_version = ${migrations.length + 1}`);
    db.close();
    expect(() => openDatabase({ path })).toThrow(DatabaseVersionError);
    expect(() => openDatabase({ path })).toThrow(/newer version of Transfer Till/);
  });

  it('is idempotent on an up-to-date database', () => {
    const { db } = createTestDb();
    expect(migrate(db, migrations)).toBe(migrations.length);
    expect(schemaVersion(db)).toBe(migrations.length);
  });
});
