import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callbackUrlRecord } from '#main/security/callback-url-record';
import { createDbAtVersion } from '#support/database';
import { dailyBackup } from './backup';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';

/** A callback path token's shape: 256 random bits, base64url. */
const TOKEN = randomBytes(32).toString('base64url');
const URL_WITH_TOKEN = `https://shop-1.ngrok.app/callbacks/${TOKEN}`;

describe('migration 011-callback-url-records', () => {
  it('keeps each account’s callback address without its token, in the store and in a backup made after', async () => {
    const { db, path } = createDbAtVersion(10);
    const insert = db.prepare(
      `INSERT INTO virtual_accounts (type, purpose, reference, callback_url, status, created_at,
         updated_at) VALUES (?, ?, ?, ?, 'active', 1, 1)`,
    );
    insert.run('nonstatic', 'sale', 'TT-1', URL_WITH_TOKEN);
    insert.run('static-flex', 'counter', 'TT-2', URL_WITH_TOKEN);
    insert.run('nonstatic', 'sale', 'TT-3', null);
    // A record far shorter than the row it replaces: the freed bytes would span the token.
    insert.run('nonstatic', 'sale', 'TT-4', `${URL_WITH_TOKEN}?v=${'0'.repeat(300)}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(path).includes(TOKEN)).toBe(true);

    expect(migrate(db, migrations.slice(0, 11))).toBe(11);
    expect(schemaVersion(db)).toBe(11);
    const rows = db
      .prepare(`SELECT reference, callback_url AS url FROM virtual_accounts ORDER BY id`)
      .all() as { reference: string; url: string | null }[];
    const record = callbackUrlRecord(URL_WITH_TOKEN);
    expect(record).toMatch(
      /^https:\/\/shop-1\.ngrok\.app\/callbacks\/\[token sha256:[0-9a-f]{16}\]$/,
    );
    expect(rows).toEqual([
      { reference: 'TT-1', url: record },
      { reference: 'TT-2', url: record },
      { reference: 'TT-3', url: null },
      { reference: 'TT-4', url: callbackUrlRecord(`${URL_WITH_TOKEN}?v=${'0'.repeat(300)}`) },
    ]);

    const backup = await dailyBackup(db, {
      dir: join(path, '..', 'backups'),
      keep: 3,
      day: '2026-11-22',
    });
    expect(backup).not.toBeNull();
    // Not in the backup's bytes, nor in the store's own file: the freed bytes were overwritten.
    expect(readFileSync(backup ?? '').includes(TOKEN)).toBe(false);
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(path).includes(TOKEN)).toBe(false);
    db.close();
  });
});
