import type { Migration } from '../migrate';
import { callbackUrlRecord } from '#main/security/callback-url-record';

/**
 * The callback URL of each account is kept without its secret path token: the token is replaced
 * by its fingerprint (security/callback-url-record.ts), as the accounts repository now writes
 * it, so that neither the store nor a backup made from it hands out the callback route. The old
 * bytes are overwritten too (secure_delete for this rewrite): a page keeps what an update freed.
 */
export const m011CallbackUrlRecords: Migration = {
  version: 11,
  name: '011-callback-url-records',
  up(db) {
    const secureDelete = db.pragma('secure_delete', { simple: true }) as number;
    db.pragma('secure_delete = ON');
    try {
      const rows = db
        .prepare(
          `SELECT id, callback_url AS url FROM virtual_accounts WHERE callback_url IS NOT NULL`,
        )
        .all() as { id: number; url: string }[];
      const update = db.prepare(`UPDATE virtual_accounts SET callback_url = ? WHERE id = ?`);
      for (const row of rows) {
        const record = callbackUrlRecord(row.url);
        if (record !== row.url) update.run(record, row.id);
      }
    } finally {
      db.pragma(`secure_delete = ${secureDelete}`);
    }
  },
};
