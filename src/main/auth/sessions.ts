/**
 * Sessions live in main, in memory (a restart signs everyone out; PINs and lock-outs persist).
 * A desktop window is a session (keyed by its webContents); a browser tab gets a session id at its
 * first call and sends it back with each call, bound to the token it came with.
 */
import { randomBytes } from 'node:crypto';
import type { Caller, CallerVia } from '#shared/bridge/contract';
import type { CounterIdentity } from '#shared/hub';

/** An owner unlock ends after this long without an owner call (or at "Lock"). */
export const OWNER_IDLE_MS = 15 * 60_000;
/** A session nobody used for this long is forgotten (a closed tab never says goodbye). */
export const SESSION_IDLE_MS = 12 * 60 * 60_000;
/** At most this many sessions are kept; the least recently used goes first. */
export const MAX_SESSIONS = 500;

export interface SessionRecord {
  readonly id: string;
  readonly via: CallerVia;
  /** What the session is bound to (a shell token's digest, the desktop app): used with it only. */
  readonly boundTo: string;
  /** The signed-in cashier, as written in Settings. */
  cashier: string | null;
  /** The owner unlock's end, or null. */
  ownerUntil: number | null;
  lastSeenAt: number;
}

export interface SessionRequest {
  /** The id the page sent, if any (a desktop window's is fixed). */
  readonly sessionId: string | null;
  readonly via: CallerVia;
  readonly boundTo: string;
  /**
   * The paired counter whose token came with the request (via 'counter' only), as it is now:
   * taken from each request, never kept in the session, so a rename or a new till id applies
   * at once.
   */
  readonly counter?: CounterIdentity;
}

export interface SessionBook {
  /** The request's session, or a new one when the id is missing, unknown, idle or bound elsewhere. */
  ensure(request: SessionRequest): SessionRecord;
  /** The request's session if it exists (no new one, no "seen" update). */
  find(request: SessionRequest): SessionRecord | null;
  get(sessionId: string): SessionRecord | null;
  forget(sessionId: string): void;
  /** Ends every owner unlock (the owner PIN was set, changed or removed). */
  lockAll(): void;
}

export function createSessionBook(options: {
  readonly now: () => number;
  /** A fixed id for a request that names one (desktop windows); random otherwise. */
  readonly newId?: () => string;
}): SessionBook {
  const { now } = options;
  const newId = options.newId ?? (() => randomBytes(16).toString('base64url'));
  // A Map keeps insertion order: re-inserting on use makes the first entry the least recent.
  const sessions = new Map<string, SessionRecord>();

  function live(record: SessionRecord | undefined, request: SessionRequest): boolean {
    return (
      record !== undefined &&
      record.boundTo === request.boundTo &&
      record.via === request.via &&
      now() - record.lastSeenAt < SESSION_IDLE_MS
    );
  }

  function find(request: SessionRequest): SessionRecord | null {
    if (request.sessionId === null) return null;
    const record = sessions.get(request.sessionId);
    return live(record, request) && record ? record : null;
  }

  function prune(): void {
    const at = now();
    for (const [id, record] of sessions) {
      if (at - record.lastSeenAt >= SESSION_IDLE_MS) sessions.delete(id);
    }
    while (sessions.size >= MAX_SESSIONS) {
      const oldest = sessions.keys().next();
      if (oldest.done) break;
      sessions.delete(oldest.value);
    }
  }

  return {
    ensure(request) {
      const found = find(request);
      if (found) {
        found.lastSeenAt = now();
        sessions.delete(found.id);
        sessions.set(found.id, found);
        return found;
      }
      prune();
      // A desktop window keeps its own id (main makes it, not the page); a browser page's unknown
      // id is never adopted, so that a guessed or stale id cannot pick up a session later.
      const fixed = request.via === 'desktop' ? request.sessionId : null;
      const id = fixed !== null && !sessions.has(fixed) ? fixed : newId();
      const record: SessionRecord = {
        id,
        via: request.via,
        boundTo: request.boundTo,
        cashier: null,
        ownerUntil: null,
        lastSeenAt: now(),
      };
      sessions.set(id, record);
      return record;
    },
    find,
    get: (sessionId) => sessions.get(sessionId) ?? null,
    forget: (sessionId) => void sessions.delete(sessionId),
    lockAll() {
      for (const record of sessions.values()) record.ownerUntil = null;
    },
  };
}

export interface RoleRules {
  readonly ownerPinSet: boolean;
  readonly now: number;
  /** Whether a name is still on the cashier list (a removed cashier is signed out). */
  readonly isCashier: (name: string) => boolean;
}

/**
 * Who a session is now. No owner PIN: everyone is owner (a one-person shop). A counter is a
 * cashier whatever the PIN, and carries the paired counter it came from. A live owner unlock:
 * owner. Otherwise the signed-in cashier, or a signed-out cashier (name null).
 */
export function callerOf(
  record: SessionRecord | null,
  request: {
    readonly sessionId: string;
    readonly via: CallerVia;
    readonly counter?: CounterIdentity | undefined;
  },
  rules: RoleRules,
): Caller {
  const sessionId = record?.id ?? request.sessionId;
  const via = record?.via ?? request.via;
  const cashier = record?.cashier ?? null;
  const name = cashier !== null && rules.isCashier(cashier) ? cashier : null;
  const unlocked =
    record?.ownerUntil !== null &&
    record?.ownerUntil !== undefined &&
    rules.now < record.ownerUntil;
  if (via === 'counter') {
    return {
      role: 'cashier',
      name,
      sessionId,
      via,
      ...(request.counter ? { counter: request.counter } : {}),
    };
  }
  const role = !rules.ownerPinSet || unlocked ? 'owner' : 'cashier';
  return { role, name, sessionId, via };
}
