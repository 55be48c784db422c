/**
 * Owner and cashier roles: the PIN store and the session book behind one small interface, used
 * by the shells (who is calling) and by the sign-in handlers (change who is calling).
 */
import type { AccessLevel, Caller, SessionView } from '#shared/bridge/contract';
import { ForbiddenError, pairedCounterOf } from './caller';
import { AuthError } from './auth-errors';
import {
  cashierSubject,
  HUB_DEVICE,
  OWNER,
  openPinStore,
  type PinDevice,
  type PinStore,
  type PinsFileRecovery,
} from './pin-store';
import type { PinKdfParams } from './pin-hash';
import {
  callerOf,
  createSessionBook,
  OWNER_IDLE_MS,
  type SessionBook,
  type SessionRecord,
  type SessionRequest,
} from './sessions';

export interface RolesOptions {
  readonly dataDir: string;
  readonly now: () => number;
  /** The cashier list from Settings, as written there. */
  readonly cashiers: () => readonly string[];
  /** The owner's option: every cashier needs a PIN to sign in. */
  readonly cashierPinsRequired: () => boolean;
  readonly kdf?: PinKdfParams;
}

export type RolesView = Omit<SessionView, 'sounds'>;

export interface Roles {
  /**
   * The caller of one call: the request's session (made if needed) resolved to a role now. A
   * call on an owner channel by an unlocked owner renews the unlock.
   */
  callerFor(request: SessionRequest, access: AccessLevel): Caller;
  /** Who an event stream listens as now: no session is made and nothing is renewed. */
  viewerFor(request: SessionRequest): Caller;
  /** The caller's session as it is now (after a sign-in, say). */
  view(caller: Caller): RolesView;
  signIn(caller: Caller, name: string, pin: string | undefined): Promise<void>;
  signOut(caller: Caller): void;
  unlockOwner(caller: Caller, pin: string): Promise<void>;
  lock(caller: Caller): void;
  setOwnerPin(caller: Caller, pin: string, currentPin: string | undefined): Promise<void>;
  removeOwnerPin(caller: Caller, currentPin: string): Promise<void>;
  setCashierPin(name: string, pin: string | null): Promise<void>;
  ownerPinSet(): boolean;
  /** A window closed: its session goes. */
  forget(sessionId: string): void;
  readonly recovery: PinsFileRecovery | null;
}

/** Where calls made inside the till's process keep their session (tests, benchmarks). */
const IN_PROCESS = 'in-process';

export const OWNER_PIN_AT_HUB_MESSAGE =
  'The owner PIN is typed at the hub itself, never at a counter: counters are cashiers.';

/** Where the caller types a PIN: each paired counter is a device of its own, the hub another. */
export function pinDeviceOf(caller: Caller): PinDevice {
  if (caller.via !== 'counter') return HUB_DEVICE;
  return `counter:${pairedCounterOf(caller)?.id ?? 'unpaired'}`;
}

/** The owner PIN is never tried from the LAN: not a right one, not a wrong one, not counted. */
function refuseOwnerPinAtCounter(caller: Caller): void {
  if (caller.via === 'counter') throw new ForbiddenError(OWNER_PIN_AT_HUB_MESSAGE);
}

export function createRoles(options: RolesOptions): Roles {
  const { now } = options;
  const pins: PinStore = openPinStore({
    dataDir: options.dataDir,
    now,
    ...(options.kdf ? { kdf: options.kdf } : {}),
  });
  const book: SessionBook = createSessionBook({ now });

  function canonicalName(name: string): string | null {
    const wanted = name.trim().toLowerCase();
    return options.cashiers().find((candidate) => candidate.toLowerCase() === wanted) ?? null;
  }

  function rules() {
    return {
      ownerPinSet: pins.isSet(OWNER),
      now: now(),
      isCashier: (name: string) => canonicalName(name) === name,
    };
  }

  function resolve(record: SessionRecord | null, request: SessionRequest): Caller {
    return callerOf(
      record,
      { sessionId: request.sessionId ?? '', via: request.via, counter: request.counter },
      rules(),
    );
  }

  /** The caller's session record; calls made in-process get one of their own on first use. */
  function recordOf(caller: Caller): SessionRecord {
    return (
      book.get(caller.sessionId) ??
      book.ensure({ sessionId: caller.sessionId, via: 'desktop', boundTo: IN_PROCESS })
    );
  }

  /** Checks a PIN typed into a form field other than "pin" and names that field. */
  async function verifyAs(field: string, check: () => Promise<void>): Promise<void> {
    try {
      await check();
    } catch (error) {
      if (error instanceof AuthError && error.field === 'pin' && field !== 'pin') {
        throw new AuthError(error.code, error.message, field);
      }
      throw error;
    }
  }

  return {
    callerFor(request, access) {
      const record = book.ensure(request);
      const caller = resolve(record, request);
      if (access === 'owner' && caller.role === 'owner' && record.ownerUntil !== null) {
        record.ownerUntil = now() + OWNER_IDLE_MS;
      }
      return caller;
    },
    viewerFor: (request) => resolve(book.find(request), request),
    view(caller) {
      const record = book.get(caller.sessionId);
      const current = record
        ? callerOf(record, caller, rules())
        : // A call with no session of its own (in-process) keeps the role it was given.
          caller;
      const ownerPinSet = pins.isSet(OWNER);
      return {
        role: current.role,
        name: current.name,
        ownerPinSet,
        ownerUntil: ownerPinSet && current.role === 'owner' ? (record?.ownerUntil ?? null) : null,
        cashiers: options.cashiers().map((name) => ({
          name,
          pinSet: pins.isSet(cashierSubject(name)),
        })),
        cashierPinsRequired: options.cashierPinsRequired(),
        counter: pairedCounterOf(current),
      };
    },
    async signIn(caller, name, pin) {
      const canonical = canonicalName(name);
      if (canonical === null) {
        throw new AuthError(
          'UNKNOWN_CASHIER',
          `${name.trim()} is not on this till's cashier list. The owner adds cashiers in Settings.`,
          'name',
        );
      }
      if (options.cashierPinsRequired()) {
        if (pin === undefined || pin === '') {
          throw new AuthError('PIN_REQUIRED', `Enter ${canonical}'s PIN.`, 'pin');
        }
        await pins.verify(cashierSubject(canonical), pin, pinDeviceOf(caller));
      }
      const record = recordOf(caller);
      record.cashier = canonical;
      // A new person at the counter: an owner unlock left open does not carry over.
      record.ownerUntil = null;
    },
    signOut(caller) {
      const record = recordOf(caller);
      record.cashier = null;
      record.ownerUntil = null;
    },
    async unlockOwner(caller, pin) {
      refuseOwnerPinAtCounter(caller);
      if (!pins.isSet(OWNER)) return; // no PIN: everyone is owner already
      await pins.verify(OWNER, pin, pinDeviceOf(caller));
      recordOf(caller).ownerUntil = now() + OWNER_IDLE_MS;
    },
    lock(caller) {
      recordOf(caller).ownerUntil = null;
    },
    async setOwnerPin(caller, pin, currentPin) {
      refuseOwnerPinAtCounter(caller);
      if (pins.isSet(OWNER)) {
        if (currentPin === undefined || currentPin === '') {
          throw new AuthError('PIN_REQUIRED', 'Enter the current owner PIN first.', 'currentPin');
        }
        await verifyAs('currentPin', () => pins.verify(OWNER, currentPin, pinDeviceOf(caller)));
      }
      await pins.set(OWNER, pin);
      // Every other owner unlock was made with the old PIN (or none); the one who set it stays.
      book.lockAll();
      recordOf(caller).ownerUntil = now() + OWNER_IDLE_MS;
    },
    async removeOwnerPin(caller, currentPin) {
      refuseOwnerPinAtCounter(caller);
      if (!pins.isSet(OWNER)) return;
      await verifyAs('currentPin', () => pins.verify(OWNER, currentPin, pinDeviceOf(caller)));
      await pins.set(OWNER, null);
      book.lockAll();
    },
    async setCashierPin(name, pin) {
      const canonical = canonicalName(name);
      if (canonical === null) {
        throw new AuthError(
          'UNKNOWN_CASHIER',
          `${name.trim()} is not on the cashier list: add the name in Shop and till first.`,
          'name',
        );
      }
      await pins.set(cashierSubject(canonical), pin);
    },
    ownerPinSet: () => pins.isSet(OWNER),
    forget: (sessionId) => book.forget(sessionId),
    get recovery() {
      return pins.recovery;
    },
  };
}
