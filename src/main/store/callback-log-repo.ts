import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

export interface CallbackLogInput {
  readonly receivedAt: number;
  readonly remoteAddress: string;
  readonly method: string;
  readonly contentType: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly parseStatus: string;
  readonly hint: {
    readonly reference?: string | undefined;
    readonly sessionId?: string | undefined;
    readonly amountKobo?: number | undefined;
    readonly status?: string | undefined;
  } | null;
}

export interface CallbackLogRow {
  readonly id: number;
  readonly receivedAt: number;
  readonly parseStatus: string;
  readonly hintReference: string | null;
  readonly hintSessionId: string | null;
  readonly hintAmountKobo: number | null;
  readonly hintStatus: string | null;
  readonly processedAt: number | null;
  readonly outcome: string | null;
}

const COLUMNS = `id, received_at AS receivedAt, parse_status AS parseStatus,
  hint_reference AS hintReference, hint_session_id AS hintSessionId,
  hint_amount_kobo AS hintAmountKobo, hint_status AS hintStatus, processed_at AS processedAt, outcome`;

const INSERT_CALLBACK_SQL = `INSERT INTO callback_log (received_at, remote_address, method,
    content_type, headers, body, parse_status, hint_reference, hint_session_id, hint_amount_kobo,
    hint_status)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Compiled once per connection: it runs once per callback, a batch of them per group commit. */
const insertStatements = new WeakMap<Db, Statement>();

/** Durable before the listener answers 200 (the connection runs with synchronous=FULL). */
export function insertCallback(db: Db, input: CallbackLogInput): number {
  let insert = insertStatements.get(db);
  if (!insert) {
    insert = db.prepare(INSERT_CALLBACK_SQL);
    insertStatements.set(db, insert);
  }
  const { lastInsertRowid } = insert.run(
    input.receivedAt,
    input.remoteAddress,
    input.method,
    input.contentType,
    JSON.stringify(input.headers),
    input.body,
    input.parseStatus,
    input.hint?.reference ?? null,
    input.hint?.sessionId ?? null,
    input.hint?.amountKobo ?? null,
    input.hint?.status ?? null,
  );
  return Number(lastInsertRowid);
}

export function markCallbackProcessed(db: Db, id: number, outcome: string, now: number): void {
  db.prepare(`UPDATE callback_log SET processed_at = ?, outcome = ? WHERE id = ?`).run(
    now,
    outcome,
    id,
  );
}

/** Callbacks stored but never confirmed (e.g. the process died right after answering 200). */
export const UNPROCESSED_CALLBACKS_SQL = `SELECT ${COLUMNS} FROM callback_log
  WHERE processed_at IS NULL ORDER BY id LIMIT ?`;

export function listUnprocessedCallbacks(db: Db, limit = 1000): CallbackLogRow[] {
  return db.prepare(UNPROCESSED_CALLBACKS_SQL).all(limit) as CallbackLogRow[];
}

export function getCallback(db: Db, id: number): CallbackLogRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM callback_log WHERE id = ?`).get(id) as
    CallbackLogRow | undefined;
}
