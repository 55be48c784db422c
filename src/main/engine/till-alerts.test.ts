import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '#main/store/database';
import { listOpenAlerts } from '#main/store/alerts-repo';
import { createTestDb } from '#support/database';
import { raiseTillAlert } from './till-alerts';

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

describe('a till alert (real SQLite)', () => {
  it('is stored once by its dedupe key and answered as the view pages show', () => {
    const { db } = createTestDb();
    opened.push(db);
    const alert = {
      level: 'error',
      kind: 'disk_full',
      message: 'The disk is full.',
      dedupeKey: 'disk_full:1000',
    } as const;

    const view = raiseTillAlert(db, alert, 1_000);
    expect(view).toMatchObject({
      level: 'error',
      kind: 'disk_full',
      message: 'The disk is full.',
      createdAt: 1_000,
      saleId: null,
      acknowledgedAt: null,
    });
    expect(view?.id).toBeGreaterThan(0);
    // Raised again (a restart, a second watch): nothing new to tell the pages.
    expect(raiseTillAlert(db, alert, 2_000)).toBeNull();
    expect(listOpenAlerts(db).map((row) => row.id)).toEqual([view?.id]);
  });
});
