import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from './migrate';
import { migrations } from './migrations';
import { createDbAtVersion, explain } from '#support/database';

type TestDb = ReturnType<typeof createDbAtVersion>['db'];

function columns(db: TestDb, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map(
    (row) => row.name,
  );
}

function insertRun(db: TestDb): number {
  return Number(
    db
      .prepare(
        `INSERT INTO sync_runs (mode, trigger, status, started_at) VALUES ('full', 'user', 'complete', 0)`,
      )
      .run().lastInsertRowid,
  );
}

describe('migration 003-status-history-and-unreadable', () => {
  it('gives every existing inflow the time its status was last known, and keeps its rows', () => {
    const { db } = createDbAtVersion(2);
    db.prepare(
      `INSERT INTO inflows (session_id, amount_kobo, status, source, last_source, first_seen_at, updated_at)
       VALUES ('000000000000000000000000000001', 150000, 'success', 'callback', 'listing', 10, 77)`,
    ).run();
    insertRun(db);

    expect(migrate(db, migrations.slice(0, 3))).toBe(3);
    expect(schemaVersion(db)).toBe(3);
    expect(db.prepare('SELECT status, status_observed_at, amount_kobo FROM inflows').get()).toEqual(
      {
        status: 'success',
        status_observed_at: 77,
        amount_kobo: 150000,
      },
    );
    expect(db.prepare('SELECT unreadable FROM sync_runs').get()).toEqual({ unreadable: 0 });
    expect(columns(db, 'inflow_status_history')).toEqual([
      'id',
      'inflow_id',
      'recorded_at',
      'observed_at',
      'from_status',
      'to_status',
      'source',
    ]);
    expect(columns(db, 'unreadable_listing_rows')).toEqual(
      expect.arrayContaining(['fingerprint', 'raw', 'problem', 'last_run_id', 'resolved_at']),
    );
  });

  it('checks the history, caps the raw text of an unreadable row and keys it by fingerprint', () => {
    const { db } = createDbAtVersion(3);
    const inflowId = Number(
      db
        .prepare(
          `INSERT INTO inflows (session_id, amount_kobo, status, source, last_source, first_seen_at, updated_at)
           VALUES ('000000000000000000000000000002', 1, 'failed', 'poll', 'poll', 0, 0)`,
        )
        .run().lastInsertRowid,
    );
    const history = db.prepare(
      `INSERT INTO inflow_status_history (inflow_id, recorded_at, observed_at, from_status, to_status, source)
       VALUES (?, 1, 1, ?, ?, 'listing')`,
    );
    history.run(inflowId, 'failed', 'success');
    expect(() => history.run(inflowId, 'failed', 'reversed')).toThrow(/CHECK/);
    expect(() => history.run(inflowId, null, 'success')).toThrow(/NOT NULL/);
    expect(() => history.run(999, 'failed', 'success')).toThrow(/FOREIGN KEY/);

    const runId = insertRun(db);
    const unreadable = db.prepare(
      `INSERT INTO unreadable_listing_rows (fingerprint, raw, problem, position, first_seen_at,
         last_seen_at, first_run_id, last_run_id) VALUES (?, ?, 'x: missing', 0, 0, 0, ?, ?)`,
    );
    unreadable.run('f1', '{}', runId, runId);
    expect(() => unreadable.run('f1', '{}', runId, runId)).toThrow(/UNIQUE/);
    expect(() => unreadable.run('f2', 'y'.repeat(4097), runId, runId)).toThrow(/CHECK/);
  });

  it('indexes what the report asks: open unreadable rows, unreadable callbacks of a day, history', () => {
    const { db } = createDbAtVersion(3);
    expect(
      explain(
        db,
        `SELECT problem, COUNT(*) FROM unreadable_listing_rows WHERE resolved_at IS NULL GROUP BY problem`,
      ).join('\n'),
    ).toContain('unreadable_listing_rows_open');
    expect(
      explain(
        db,
        `SELECT COUNT(*) FROM callback_log
         WHERE (parse_status = 'malformed'
             OR (parse_status = 'ok' AND hint_reference IS NULL AND hint_session_id IS NULL))
           AND received_at >= ? AND received_at < ?`,
        0,
        1,
      ).join('\n'),
    ).toContain('callback_log_unreadable');
    expect(
      explain(db, `SELECT * FROM inflow_status_history WHERE inflow_id = ? ORDER BY id`, 1).join(
        '\n',
      ),
    ).toMatch(/SEARCH inflow_status_history USING INDEX inflow_status_history_inflow/);
  });
});
