import { describe, expect, it } from 'vitest';
import {
  getPairedCounterByTokenHash,
  insertPairedCounter,
  listPairedCounters,
  recordPairedCounterContact,
  renamePairedCounter,
  revokePairedCounter,
  setPairedCounterTillId,
  TOKEN_LOOKUP_SQL,
} from './paired-counters-repo';
import { createTestDb, explain } from '#support/database';

const hash = (c: string) => c.repeat(64);

describe('paired counters repository', () => {
  it('stores counters, lists them newest first, and finds one by its token hash', () => {
    const { db } = createTestDb();
    const front = insertPairedCounter(
      db,
      { name: 'Front', tillId: 'till-frnt', tokenSha256: hash('a') },
      1_000,
    );
    const back = insertPairedCounter(
      db,
      { name: 'Back', tillId: 'till-back', tokenSha256: hash('b') },
      2_000,
    );
    expect(front).toEqual({
      id: front.id,
      name: 'Front',
      tillId: 'till-frnt',
      pairedAt: 1_000,
      lastContactAt: null,
      revokedAt: null,
    });
    expect(listPairedCounters(db).map((row) => row.name)).toEqual(['Back', 'Front']);
    expect(getPairedCounterByTokenHash(db, hash('b'))?.id).toBe(back.id);
    expect(getPairedCounterByTokenHash(db, hash('c'))).toBeUndefined();

    renamePairedCounter(db, front.id, 'Door');
    setPairedCounterTillId(db, front.id, 'till-door');
    recordPairedCounterContact(db, front.id, 5_000);
    // An older contact never moves the last contact back.
    recordPairedCounterContact(db, front.id, 4_000);
    expect(revokePairedCounter(db, front.id, 6_000)).toBe(true);
    // Revoking twice keeps the first time.
    expect(revokePairedCounter(db, front.id, 7_000)).toBe(false);
    expect(getPairedCounterByTokenHash(db, hash('a'))).toMatchObject({
      name: 'Door',
      tillId: 'till-door',
      lastContactAt: 5_000,
      revokedAt: 6_000,
    });
  });

  it('looks a token hash up in its unique index (every request of every counter does)', () => {
    const { db } = createTestDb();
    const plan = explain(db, TOKEN_LOOKUP_SQL, hash('a')).join('\n');
    expect(plan).toMatch(
      /SEARCH paired_counters USING INDEX paired_counters_token \(token_sha256=\?\)/,
    );
    expect(plan).not.toMatch(/SCAN/);
  });
});
