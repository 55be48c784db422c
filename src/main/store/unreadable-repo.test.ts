import { describe, expect, it } from 'vitest';
import { insertCallback } from './callback-log-repo';
import { createTestDb, explain } from '#support/database';
import {
  OPEN_UNREADABLE_BY_PROBLEM_SQL,
  UNREADABLE_CALLBACKS_SQL,
  listUnreadableRows,
  openUnreadableByProblem,
  openUnreadablePositions,
  recordUnreadableRows,
  resolveUnseenUnreadableRows,
  unreadableCallbacks,
  unreadableFingerprint,
} from './unreadable-repo';

type TestDb = ReturnType<typeof createTestDb>['db'];

function run(db: TestDb): number {
  return Number(
    db
      .prepare(
        `INSERT INTO sync_runs (mode, trigger, status, started_at) VALUES ('full', 'test', 'running', 0)`,
      )
      .run().lastInsertRowid,
  );
}

const A = { position: 3, raw: '{"amount":1,"status":"success"}', problem: 'session_id: missing' };
const B = { position: 9, raw: '{"session_id":5}', problem: 'session_id: not a string of digits' };

describe('unreadable listing rows', () => {
  it('keeps each distinct row once, with first and last sighting, by the sha256 of its text', () => {
    const { db } = createTestDb();
    const first = run(db);
    recordUnreadableRows(db, [A, B], first, 100);
    const second = run(db);
    recordUnreadableRows(db, [{ ...A, position: 4 }], second, 200);

    const rows = listUnreadableRows(db);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      fingerprint: unreadableFingerprint(A.raw),
      raw: A.raw,
      problem: A.problem,
      position: 4,
      firstSeenAt: 100,
      lastSeenAt: 200,
      firstRunId: first,
      lastRunId: second,
      resolvedAt: null,
    });
    expect(unreadableFingerprint(A.raw)).toMatch(/^[0-9a-f]{64}$/);
    expect(openUnreadableByProblem(db)).toEqual([
      { problem: 'session_id: missing', count: 1, firstSeenAt: 100 },
      { problem: 'session_id: not a string of digits', count: 1, firstSeenAt: 100 },
    ]);
  });

  it('resolves the rows a complete run no longer met, and opens one again if it comes back', () => {
    const { db } = createTestDb();
    const first = run(db);
    recordUnreadableRows(db, [A, B], first, 100);
    const second = run(db);
    recordUnreadableRows(db, [B], second, 200);
    expect(resolveUnseenUnreadableRows(db, second, 250)).toBe(1);
    expect(listUnreadableRows(db, { open: true }).map((row) => row.raw)).toEqual([B.raw]);
    expect(openUnreadablePositions(db)).toEqual(new Set([B.position]));
    expect(listUnreadableRows(db)[0]).toMatchObject({ resolvedAt: 250, resolvedRunId: second });

    const third = run(db);
    recordUnreadableRows(db, [A], third, 300);
    expect(listUnreadableRows(db)[0]).toMatchObject({
      resolvedAt: null,
      resolvedRunId: null,
      lastRunId: third,
    });
  });

  it('reads the open rows by problem through the partial index only', () => {
    const { db } = createTestDb();
    const plan = explain(db, OPEN_UNREADABLE_BY_PROBLEM_SQL).join('\n');
    // A scan of the partial index: it holds the open rows only, however long the history.
    expect(plan).toMatch(
      /^SCAN unreadable_listing_rows USING (COVERING )?INDEX unreadable_listing_rows_open$/,
    );
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});

describe('unreadable callbacks', () => {
  function callback(
    db: TestDb,
    at: number,
    parseStatus: string,
    contentType: string | null,
    hint: { reference?: string; sessionId?: string } | null = null,
  ): void {
    insertCallback(db, {
      receivedAt: at,
      remoteAddress: '127.0.0.1',
      method: 'POST',
      contentType,
      headers: {},
      body: 'x',
      parseStatus,
      hint,
    });
  }

  it('counts bodies that were neither JSON nor a form, or held nothing to tie them to a payment', () => {
    const { db } = createTestDb();
    callback(db, 10, 'malformed', 'text/plain');
    callback(db, 11, 'malformed', 'application/json');
    callback(db, 12, 'malformed', 'application/json');
    callback(db, 13, 'ok', 'application/json'); // read, but no reference or session id
    callback(db, 14, 'ok', 'application/json', { reference: 'TT-1' });
    callback(db, 15, 'ok', 'application/json', { sessionId: '1'.repeat(30) });
    callback(db, 16, 'empty', null); // a ping
    callback(db, 99, 'malformed', 'text/plain'); // another day

    const counts = unreadableCallbacks(db, 0, 50);
    expect(
      [...counts]
        .sort((a, b) => a.firstAt - b.firstAt)
        .map((c) => [c.parseStatus, c.contentType, c.count]),
    ).toEqual([
      ['malformed', 'text/plain', 1],
      ['malformed', 'application/json', 2],
      ['ok', 'application/json', 1],
    ]);
    const plan = explain(db, UNREADABLE_CALLBACKS_SQL, 0, 1).join('\n');
    expect(plan).toMatch(
      /SEARCH callback_log USING INDEX callback_log_unreadable \(received_at>\? AND received_at<\?\)/,
    );
  });
});
