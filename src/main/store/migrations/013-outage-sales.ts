import type { Migration } from '../migrate';

/**
 * Selling through an outage (issue 35). A sale taken on the till's standing `static-flex`
 * account while the provider cannot be reached is `unconfirmed` until its money is matched;
 * `amount_due_kobo` is the exact amount the customer was asked to send (the sale's amount plus a
 * kobo tag under ₦1 that tells open outage sales apart); null for every other sale. The standing
 * account kept for outages has its own purpose, 'outage', apart from the owner's counters.
 *
 * The two CHECKs only widen (a new allowed value), which SQLite's documented procedure allows by
 * editing the schema text in place (https://sqlite.org/lang_altertable.html, "making other
 * kinds of table schema changes"): no row is rewritten, so a ten-year shop upgrades at once,
 * and the rebuild's drop of `sales` (which every sale event, inflow and alert references) is
 * avoided. better-sqlite3 runs SQLite in defensive mode; it is lifted for this step only.
 */
export const m013OutageSales: Migration = {
  version: 13,
  name: '013-outage-sales',
  up(db) {
    widenCheck(
      db,
      'sales',
      `'expired', 'cancelled', 'paid_late'))`,
      `'expired', 'cancelled', 'paid_late', 'unconfirmed'))`,
    );
    widenCheck(
      db,
      'virtual_accounts',
      `CHECK (purpose IN ('sale', 'counter'))`,
      `CHECK (purpose IN ('sale', 'counter', 'outage'))`,
    );
    db.exec(`
      ALTER TABLE sales ADD COLUMN amount_due_kobo INTEGER
        CHECK (amount_due_kobo IS NULL OR amount_due_kobo > 0);
      CREATE INDEX sales_unconfirmed ON sales (amount_due_kobo) WHERE state = 'unconfirmed';
    `);
  },
};

function widenCheck(
  db: Parameters<Migration['up']>[0],
  table: string,
  from: string,
  to: string,
): void {
  const row = db
    .prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?`)
    .get(table) as { sql: string } | undefined;
  if (!row?.sql.includes(from)) {
    throw new Error(`Migration 013: the ${table} table's CHECK is not the one it widens`);
  }
  const version = db.pragma('schema_version', { simple: true }) as number;
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    db.prepare(`UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = ?`).run(
      row.sql.replace(from, to),
      table,
    );
    db.pragma(`schema_version = ${version + 1}`);
    db.pragma('writable_schema = OFF');
  } finally {
    db.unsafeMode(false);
  }
}
