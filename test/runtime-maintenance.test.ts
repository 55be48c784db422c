/**
 * The store's maintenance in the running core: the schedule's first pass reduces what retention
 * says, while the till runs; a full disk skips it; closing leaves no timer behind. Real SQLite
 * file, the embedded sandbox; only the clock is manual.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tillDbPath } from '#main/config/data-files';
import { createCore } from '#main/core/create-core';
import { FIRST_MAINTENANCE_MS, MAINTENANCE_EVERY_MS } from '#main/core/maintenance-schedule';
import { PRUNED_BODY_PREFIX } from '#main/store/retention';
import { ManualScheduler } from '#support/clock';

const DAY_MS = 86_400_000;

/** An old processed callback, written by a second connection as the listener would have. */
function insertOldCallback(dataDir: string, receivedAt: number): number {
  const db = new Database(tillDbPath(dataDir, 'sandbox'));
  try {
    return Number(
      db
        .prepare(
          `INSERT INTO callback_log (received_at, method, headers, body, parse_status,
             hint_reference, hint_session_id, processed_at, outcome)
           VALUES (?, 'POST', '{"x-a":"b"}', '{"reference":"R-1"}', 'ok', 'R-1', ?, ?, 'confirmed')`,
        )
        .run(receivedAt, '1'.repeat(30), receivedAt + 1_000).lastInsertRowid,
    );
  } finally {
    db.close();
  }
}

function bodyOf(dataDir: string, id: number): string {
  const db = new Database(tillDbPath(dataDir, 'sandbox'), { readonly: true });
  try {
    return db.prepare('SELECT body FROM callback_log WHERE id = ?').pluck().get(id) as string;
  } finally {
    db.close();
  }
}

async function passesLogged(dataDir: string, count: number): Promise<void> {
  const log = join(dataDir, 'logs', 'main.log');
  for (let waited = 0; waited < 10_000; waited += 50) {
    const text = readFileSync(log, 'utf8');
    if (text.split('store maintenance pass').length - 1 >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${count} maintenance passes in the log`);
}

describe('store maintenance in the running core', () => {
  it('the first pass reduces old callback bodies; a full disk skips the next; close leaves no timer', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'till-maintenance-'));
    const scheduler = new ManualScheduler();
    const core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-test', scheduler });
    const old = insertOldCallback(dataDir, scheduler.now() - 120 * DAY_MS);
    await scheduler.advance(FIRST_MAINTENANCE_MS);
    await passesLogged(dataDir, 1);
    expect(bodyOf(dataDir, old)).toMatch(new RegExp(`^${PRUNED_BODY_PREFIX}[0-9a-f]{64}$`));

    // The disk fills: the next pass is skipped (a pass writes), the old row stays as it is.
    const second = insertOldCallback(dataDir, scheduler.now() - 120 * DAY_MS);
    expect(core.limitStoreGrowth(true).full).toBe(true);
    await scheduler.advance(MAINTENANCE_EVERY_MS);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bodyOf(dataDir, second)).toBe('{"reference":"R-1"}');
    expect(core.limitStoreGrowth(false).full).toBe(false);
    await scheduler.advance(MAINTENANCE_EVERY_MS);
    await passesLogged(dataDir, 2);
    expect(bodyOf(dataDir, second)).toMatch(new RegExp(`^${PRUNED_BODY_PREFIX}`));

    await core.close();
    expect(scheduler.pending()).toBe(0);
  });
});
