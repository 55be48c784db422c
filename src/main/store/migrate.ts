import type Database from 'better-sqlite3';
import { AppError } from '#shared/errors';

export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Database.Database): void;
}

export class DatabaseVersionError extends AppError<'DATABASE_TOO_NEW'> {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(
      'DATABASE_TOO_NEW',
      `This database was written by a newer version of Transfer Till (schema ${found}; this ` +
        `version knows up to ${known}). Install the newer version, or restore a backup made by ` +
        'this version.',
    );
    this.name = 'DatabaseVersionError';
  }
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies every pending migration, in order, in one transaction: either the database reaches
 * the latest version or it stays exactly as it was. The version lives in PRAGMA user_version.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[]): number {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Migration ${migration.name} has version ${migration.version}, expected ${index + 1}`,
      );
    }
  });
  const latest = migrations.length;
  const current = schemaVersion(db);
  if (current > latest) throw new DatabaseVersionError(current, latest);
  if (current === latest) return current;
  db.transaction(() => {
    for (const migration of migrations.slice(current)) {
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }
  }).immediate();
  return latest;
}
