import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { businessDay } from '#shared/provider-time';
import { createTestDb } from '#support/database';
import { addRetentionHistory } from '#support/retention-history';
import { generateShop } from '#support/shop-history';
import { buildCsvExport } from './csv';

const DAY_MS = 86_400_000;
const END_MS = Date.UTC(2026, 10, 1, 12, 0, 0);
const START_MS = END_MS - 75 * DAY_MS;
const ZONE = { timeZone: 'Africa/Lagos', cutoffHour: 0 };

/**
 * The CSV of a generated month, byte for byte: the digest was taken from the export before
 * the walk read its rows as arrays (raw), so a change that moves a byte of the file fails here.
 * Retaken once when the line "Counter account" was renamed "Standing account" (225 cells; with
 * the old name put back the file hashes to the first digest, c5a5e4e5…). Retaken again when a
 * wrong amount stopped claiming "the bank returns it to the customer" and became "For
 * information" in the resolution column (115 rows; with the old words and "Open" put back the
 * file hashes to the previous digest, 04402f3d…).
 */
const MONTH_CSV_SHA256 = '594afdc3c7ab95438ffa4b141e192971ac39594c4fbb4f9dfc43ec0f8f4e2536';

describe('the CSV of a generated month', () => {
  it('is byte for byte the file it was before the walk read raw rows', () => {
    const { db } = createTestDb();
    try {
      const shop = generateShop(db, { seed: 21, startMs: START_MS, endMs: END_MS, events: 4_000 });
      addRetentionHistory(db, shop, { seed: 21, startMs: START_MS, endMs: END_MS });
      const exported = buildCsvExport(db, {
        fromDay: businessDay(END_MS - 31 * DAY_MS, ZONE),
        toDay: businessDay(END_MS - DAY_MS, ZONE),
        ...ZONE,
        tillId: 'till-1',
      });
      expect(exported.rows).toBeGreaterThan(1_000);
      // Exceptions and resolutions are in it, so their columns are covered too.
      expect(exported.csv).toContain('Paid late');
      expect(exported.csv).toContain('Open');
      expect(createHash('sha256').update(exported.csv, 'utf8').digest('hex')).toBe(
        MONTH_CSV_SHA256,
      );
    } finally {
      db.close();
    }
  });
});
