/**
 * What the roles work on (the PIN store, the session book and the shop's cashier list) and the
 * questions every role operation asks of it: who a name is on the list, who a session is now,
 * which session record a caller has. roles.ts composes the operations; owner-pin.ts and
 * cashier-sign-in.ts are the PIN flows.
 */
import type { Caller } from '#shared/bridge/contract';
import { OWNER, type PinStore } from './pin-store';
import type { RolesOptions } from './roles';
import { callerOf, type SessionBook, type SessionRecord, type SessionRequest } from './sessions';

export interface RolesState {
  readonly options: RolesOptions;
  readonly now: () => number;
  readonly pins: PinStore;
  readonly book: SessionBook;
}

/** Where calls made inside the till's process keep their session (tests, benchmarks). */
const IN_PROCESS = 'in-process';

/** The name as written on the cashier list (any case typed), or null when it is not there. */
export function canonicalName(state: RolesState, name: string): string | null {
  const wanted = name.trim().toLowerCase();
  return state.options.cashiers().find((candidate) => candidate.toLowerCase() === wanted) ?? null;
}

export function roleRules(state: RolesState) {
  return {
    ownerPinSet: state.pins.isSet(OWNER),
    now: state.now(),
    isCashier: (name: string) => canonicalName(state, name) === name,
  };
}

export function resolveCaller(
  state: RolesState,
  record: SessionRecord | null,
  request: SessionRequest,
): Caller {
  return callerOf(
    record,
    { sessionId: request.sessionId ?? '', via: request.via, counter: request.counter },
    roleRules(state),
  );
}

/** The caller's session record; calls made in-process get one of their own on first use. */
export function recordOf(state: RolesState, caller: Caller): SessionRecord {
  return (
    state.book.get(caller.sessionId) ??
    state.book.ensure({ sessionId: caller.sessionId, via: 'desktop', boundTo: IN_PROCESS })
  );
}
