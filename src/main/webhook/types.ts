import type { ForeignShape } from './foreign-shape';

/**
 * The provider's callbacks have no documented payload shape and no signature (interface
 * sections 6 and 8), so what the listener extracts is only a hint for the sales engine, which
 * confirms every payment with the status endpoint. Nothing here ever means "paid".
 */
export interface CallbackHint {
  // `| undefined`: a hint built field by field (a body's field missing or of the wrong type)
  // may hold undefined where the listener's parser leaves the field out.
  /** The integrator's reference: `external_reference` when present, else `reference`. */
  readonly reference?: string | undefined;
  /** The NIP session id, always a string (the deduplication key). */
  readonly sessionId?: string | undefined;
  readonly amountKobo?: number | undefined;
  readonly status?: string | undefined;
  readonly accountNumber?: string | undefined;
  /**
   * The body parsed but none of the fields above was found under a name the till reads: its
   * values and a sample, for the engine to search and for support (foreign-shape.ts).
   */
  readonly foreign?: ForeignShape | undefined;
}

export type ParseStatus = 'ok' | 'malformed' | 'empty';

/** One callback as it arrived, minus secrets. Stored before the provider gets its answer. */
export interface RawCallbackRecord {
  /** Epoch milliseconds. */
  readonly receivedAt: number;
  /**
   * The sender's address: the last X-Forwarded-For entry when the request came through the
   * local tunnel agent or reverse proxy (every peer of a 127.0.0.1 listener is local), else the
   * socket's peer address.
   */
  readonly remoteAddress: string;
  readonly method: string;
  /** Always '/callbacks/:token' plus the query string if any: the token itself is never stored. */
  readonly path: string;
  readonly contentType: string | null;
  /** Lower-case names; secret-bearing headers removed, the path token scrubbed from values. */
  readonly headers: Readonly<Record<string, string>>;
  /** UTF-8 text of the body, at most maxBodyBytes (64 KiB) bytes. */
  readonly body: string;
  readonly parseStatus: ParseStatus;
  readonly hint: CallbackHint | null;
}

/**
 * Durable, synchronous storage of raw callbacks (the store implements it with a better-sqlite3
 * INSERT under synchronous=FULL). Synchronous on purpose: when store() returns, the record is on
 * disk, so the listener can answer 200 knowing a crash loses nothing. Throwing means "not
 * stored": the listener answers 503 so the provider retries.
 */
export interface CallbackInbox {
  /**
   * Synchronous, or a promise that resolves only once the record is on disk (group commit:
   * callbacks that arrive during one commit share the next one, each still durable before its
   * answer).
   */
  store(record: RawCallbackRecord): { readonly id: number } | Promise<{ readonly id: number }>;
}

/** What the listener hands to the sales engine, after the provider has had its answer. */
export interface StoredCallback {
  readonly id: number;
  readonly hint: CallbackHint | null;
  readonly parseStatus: ParseStatus;
}
