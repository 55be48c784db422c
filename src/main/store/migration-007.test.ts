import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';
import { createDbAtVersion, explain } from '#support/database';
import { TILL_SALE_IDS_SQL } from './till-sales-queries';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

describe('migration 007-paired-counters', () => {
  it('adds the counters table, keeps the sales, and holds the rules for tokens and till ids', () => {
    const { db } = createDbAtVersion(6);
    db.prepare(
      `INSERT INTO sales (amount_kobo, state, reference, till_id, created_at, updated_at)
       VALUES (100, 'paid', 'TILLA-1', 'till-a', 5, 5)`,
    ).run();

    expect(migrate(db, migrations.slice(0, 7))).toBe(7);
    expect(schemaVersion(db)).toBe(7);
    expect(db.prepare('SELECT COUNT(*) AS n FROM sales').get()).toEqual({ n: 1 });

    const insert = db.prepare(
      `INSERT INTO paired_counters (name, till_id, token_sha256, paired_at) VALUES (?, ?, ?, 0)`,
    );
    insert.run('Front', 'till-frnt', HASH_A);
    // One token, one counter.
    expect(() => insert.run('Back', 'till-back', HASH_A)).toThrow(/UNIQUE/);
    // Only a SHA-256 in hex fits where the token goes: a token itself is refused.
    expect(() => insert.run('Back', 'till-back', 'x'.repeat(22))).toThrow(/CHECK/);
    expect(() => insert.run('Back', 'till-back', HASH_B.toUpperCase())).toThrow(/CHECK/);
    // Till ids follow the till id rule.
    expect(() => insert.run('Back', 'till_back', HASH_B)).toThrow(/CHECK/);
    expect(() => insert.run('Back', 'x'.repeat(17), HASH_B)).toThrow(/CHECK/);
    expect(() => insert.run('', 'till-back', HASH_B)).toThrow(/CHECK/);
    // Two live counters never share a reference prefix ('TILLFRNT'), whatever the dashes or case.
    expect(() => insert.run('Back', 'TILLFRNT', HASH_B)).toThrow(/UNIQUE/);
    // A revoked counter's prefix is free again.
    db.prepare(`UPDATE paired_counters SET revoked_at = 1 WHERE token_sha256 = ?`).run(HASH_A);
    expect(() => insert.run('Back', 'TILLFRNT', HASH_B)).not.toThrow();
  });

  it("lists one till's sales of a day with one range of the new index", () => {
    const { db } = createDbAtVersion(7);
    const plan = explain(db, TILL_SALE_IDS_SQL, 'till-frnt', 0, 1, 500).join('\n');
    expect(plan).toMatch(
      /SEARCH sales USING COVERING INDEX sales_till_created \(till_id=\? AND created_at>\? AND created_at<\?\)/,
    );
    expect(plan).not.toMatch(/SCAN sales|TEMP B-TREE/);
  });
});
