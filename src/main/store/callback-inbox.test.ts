import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { createGroupCommitInbox } from './callback-inbox';
import { createStoreSpace, liftStoreGrowthLimit, limitStoreGrowth } from './store-space';
import type { CallbackLogInput } from './callback-log-repo';
import { createTestDb } from '#support/database';

function record(i: number): CallbackLogInput {
  return {
    receivedAt: i,
    remoteAddress: '127.0.0.1',
    method: 'POST',
    contentType: 'application/json',
    headers: {},
    body: `{"session_id":"${String(i).padStart(30, '0')}"}`,
    parseStatus: 'ok',
    hint: { sessionId: String(i).padStart(30, '0') },
  };
}

describe('group-commit inbox', () => {
  it('resolves each record only once it is committed, sharing commits under load', async () => {
    const { db, path } = createTestDb();
    const inbox = createGroupCommitInbox(() => db);
    const transactions = vi.spyOn(db, 'transaction');
    const stored = await Promise.all(Array.from({ length: 200 }, (_, i) => inbox.store(record(i))));
    expect(new Set(stored.map((s) => s.id)).size).toBe(200);
    // Visible to another connection: committed, not just written to this connection's cache.
    const reader = new Database(path, { readonly: true });
    expect(reader.prepare('SELECT COUNT(*) AS n FROM callback_log').get()).toEqual({ n: 200 });
    reader.close();
    // 200 callbacks arriving together share a handful of commits, not one each.
    expect(transactions.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(transactions.mock.calls.length).toBeLessThan(20);
  });

  it('rejects every waiting record when the commit fails, so the listener answers 503', async () => {
    const { db } = createTestDb();
    const inbox = createGroupCommitInbox(() => db);
    db.exec('DROP TABLE callback_log');
    await expect(Promise.all([inbox.store(record(1)), inbox.store(record(2))])).rejects.toThrow();
  });

  it('a full disk: the batch is refused (503 upstream) and the store space is told', async () => {
    const { db } = createTestDb();
    const space = createStoreSpace(db, () => 1);
    const inbox = createGroupCommitInbox(
      () => db,
      (error) => space.noteFailure(error),
    );
    limitStoreGrowth(db);
    const big = { ...record(1), body: 'x'.repeat(64 * 1024) };
    await expect(inbox.store(big)).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(space.isFull()).toBe(true);
    liftStoreGrowthLimit(db);
    await expect(inbox.store(big)).resolves.toMatchObject({ id: expect.any(Number) as unknown });
  });
});
