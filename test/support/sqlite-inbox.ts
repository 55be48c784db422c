import Database from 'better-sqlite3';
import type {
  CallbackHint,
  CallbackInbox,
  ParseStatus,
  RawCallbackRecord,
} from '#main/webhook/types';

/**
 * A minimal better-sqlite3 inbox for tests, the crash test's child and the benchmark. The real
 * inbox belongs to the store (src/main/store); this one exists so the listener's durability is
 * proved against a real file with the same settings: WAL, synchronous=FULL, one INSERT per
 * callback, no batching.
 */
export interface SqliteTestInbox extends CallbackInbox {
  readonly db: Database.Database;
  count(): number;
  all(): readonly StoredRow[];
  close(): void;
}

export interface StoredRow {
  readonly id: number;
  readonly receivedAt: number;
  readonly remoteAddress: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly parseStatus: ParseStatus;
  readonly hint: CallbackHint | null;
}

interface RowShape {
  id: number;
  received_at: number;
  remote_address: string;
  path: string;
  headers_json: string;
  body: string;
  parse_status: ParseStatus;
  hint_json: string | null;
}

export function openSqliteTestInbox(file: string): SqliteTestInbox {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE IF NOT EXISTS raw_callback (
    id INTEGER PRIMARY KEY,
    received_at INTEGER NOT NULL,
    remote_address TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    content_type TEXT,
    headers_json TEXT NOT NULL,
    body TEXT NOT NULL,
    parse_status TEXT NOT NULL,
    hint_json TEXT
  ) STRICT`);
  const insert = db.prepare(
    `INSERT INTO raw_callback
       (received_at, remote_address, method, path, content_type, headers_json, body, parse_status, hint_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const countRows = db.prepare('SELECT count(*) AS n FROM raw_callback').pluck();
  const allRows = db.prepare('SELECT * FROM raw_callback ORDER BY id');

  return {
    db,
    store(record: RawCallbackRecord) {
      const result = insert.run(
        record.receivedAt,
        record.remoteAddress,
        record.method,
        record.path,
        record.contentType,
        JSON.stringify(record.headers),
        record.body,
        record.parseStatus,
        record.hint === null ? null : JSON.stringify(record.hint),
      );
      return { id: Number(result.lastInsertRowid) };
    },
    count: () => countRows.get() as number,
    all: () =>
      (allRows.all() as RowShape[]).map((row) => ({
        id: row.id,
        receivedAt: row.received_at,
        remoteAddress: row.remote_address,
        path: row.path,
        headers: JSON.parse(row.headers_json) as Record<string, string>,
        body: row.body,
        parseStatus: row.parse_status,
        hint: row.hint_json === null ? null : (JSON.parse(row.hint_json) as CallbackHint),
      })),
    close: () => db.close(),
  };
}
