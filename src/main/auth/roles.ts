/**
 * Owner and cashier roles: the PIN store and the session book behind one small interface, used
 * by the shells (who is calling) and by the sign-in handlers (change who is calling). The flows
 * are owner-pin.ts and cashier-sign-in.ts, over the state of roles-state.ts.
 */
import type { AccessLevel, Caller, SessionView } from '#shared/bridge/contract';
import { pairedCounterOf } from '#main/auth/caller';
import { setCashierPin, signInCashier, signOutCashier } from './cashier-sign-in';
import { removeOwnerPin, setOwnerPin, unlockOwner } from './owner-pin';
import {
  cashierSubject,
  OWNER,
  openPinStore,
  type PinStore,
  type PinsFileRecovery,
} from './pin-store';
import type { PinKdfParams } from './pin-hash';
import { recordOf, resolveCaller, roleRules, type RolesState } from './roles-state';
import {
  callerOf,
  createSessionBook,
  OWNER_IDLE_MS,
  type SessionBook,
  type SessionRequest,
} from './sessions';

export interface RolesOptions {
  readonly dataDir: string;
  readonly now: () => number;
  /** The clock PIN lock-outs count on, which nothing in the till moves (pin-store.ts). */
  readonly monotonic?: () => number;
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

export { OWNER_PIN_AT_HUB_MESSAGE, pinDeviceOf } from './owner-pin';

/** The caller's session as it is now, with the PIN and cashier facts the screens show. */
function viewOf(state: RolesState, caller: Caller): RolesView {
  const { pins, options } = state;
  const record = state.book.get(caller.sessionId);
  const current = record
    ? callerOf(record, caller, roleRules(state))
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
}

export function createRoles(options: RolesOptions): Roles {
  const { now } = options;
  const pins: PinStore = openPinStore({
    dataDir: options.dataDir,
    now,
    ...(options.monotonic ? { monotonic: options.monotonic } : {}),
    ...(options.kdf ? { kdf: options.kdf } : {}),
  });
  const book: SessionBook = createSessionBook({ now });
  const state: RolesState = { options, now, pins, book };

  return {
    callerFor(request, access) {
      const record = book.ensure(request);
      const caller = resolveCaller(state, record, request);
      if (access === 'owner' && caller.role === 'owner' && record.ownerUntil !== null) {
        record.ownerUntil = now() + OWNER_IDLE_MS;
      }
      return caller;
    },
    viewerFor: (request) => resolveCaller(state, book.find(request), request),
    view: (caller) => viewOf(state, caller),
    signIn: (caller, name, pin) => signInCashier(state, caller, name, pin),
    signOut: (caller) => signOutCashier(state, caller),
    unlockOwner: (caller, pin) => unlockOwner(state, caller, pin),
    lock(caller) {
      recordOf(state, caller).ownerUntil = null;
    },
    setOwnerPin: (caller, pin, currentPin) => setOwnerPin(state, caller, pin, currentPin),
    removeOwnerPin: (caller, currentPin) => removeOwnerPin(state, caller, currentPin),
    setCashierPin: (name, pin) => setCashierPin(state, name, pin),
    ownerPinSet: () => pins.isSet(OWNER),
    forget: (sessionId) => book.forget(sessionId),
    get recovery() {
      return pins.recovery;
    },
  };
}
