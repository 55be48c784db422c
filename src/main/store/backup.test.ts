import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { dailyBackup } from './backup';
import { insertSale } from './sales-repo';
import { createTestDb } from '#support/database';

describe('daily backup', () => {
  it('copies the live database once a day and keeps the newest few', async () => {
    const { db, path } = createTestDb();
    insertSale(
      db,
      { amountKobo: 500, note: null, cashier: null, tillId: null, reference: 'TT-B' },
      1,
      'test',
    );
    const dir = join(dirname(path), 'backups');
    for (const day of ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21']) {
      expect(await dailyBackup(db, { dir, keep: 3, day })).toBe(join(dir, `till-${day}.sqlite`));
    }
    expect(await dailyBackup(db, { dir, keep: 3, day: '2026-11-21' })).toBeNull();
    expect(readdirSync(dir).sort()).toEqual([
      'till-2026-11-19.sqlite',
      'till-2026-11-20.sqlite',
      'till-2026-11-21.sqlite',
    ]);
    const copy = new Database(join(dir, 'till-2026-11-21.sqlite'), { readonly: true });
    expect(copy.prepare('SELECT reference FROM sales').all()).toEqual([{ reference: 'TT-B' }]);
    copy.close();
  });
});
