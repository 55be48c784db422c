import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
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

  it('names a full disk, and leaves no half backup taking room', async () => {
    const { db, path } = createTestDb();
    const dir = join(dirname(path), 'backups');
    // better-sqlite3's backup answering as SQLite does on a full disk (injected at that call).
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const backup = vi.spyOn(db, 'backup').mockRejectedValue(full);
    await expect(dailyBackup(db, { dir, keep: 3, day: '2026-11-22' })).rejects.toMatchObject({
      code: 'DISK_FULL',
      message:
        'The disk is full: the backup of 2026-11-22 was not written. Free some space on this computer, then try again.',
    });
    expect(readdirSync(dir)).toEqual([]);
    backup.mockRestore();
  });
});
