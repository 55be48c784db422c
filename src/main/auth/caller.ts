/**
 * The caller of a bridge call and the one rule that decides whether it may use a channel. The
 * Caller type is written in the shared contract (handlers receive it); this file is main's side.
 */
import type { AccessLevel, Caller, Role } from '#shared/bridge/contract';
import type { CounterIdentity } from '#shared/hub';
import { AppError } from '#shared/errors';

export type { Caller, CallerVia, Role } from '#shared/bridge/contract';

/** Why a call is refused before its handler runs. */
export type AccessRefusal = 'FORBIDDEN' | 'SIGNED_OUT';

/**
 * The role main acts on. A counter paired to a hub is a cashier whatever its session claims: the
 * hub's owner PIN is typed at the hub, never through a counter.
 */
export function effectiveRole(caller: Caller): Role {
  return caller.via === 'counter' ? 'cashier' : caller.role;
}

/**
 * Whether `caller` may call a channel of this access level; the refusal's code when not. A
 * paired counter (its token resolved to a counter) sells without a cashier sign-in: the pairing
 * is its sign-in. A 'counter' call that carries no counter is only ever a signed-out cashier.
 */
export function accessRefusal(access: AccessLevel, caller: Caller): AccessRefusal | null {
  if (access === 'open') return null;
  const role = effectiveRole(caller);
  if (role === 'owner') return null;
  if (access === 'owner') return 'FORBIDDEN';
  if (pairedCounterOf(caller) !== null) return null;
  return caller.name === null ? 'SIGNED_OUT' : null;
}

/** The paired counter a call comes from, or null for the hub's own pages and in-process calls. */
export function pairedCounterOf(caller: Caller): CounterIdentity | null {
  return caller.via === 'counter' ? (caller.counter ?? null) : null;
}

/**
 * Calls main makes of itself act as the owner: the desktop glue reading the till's state for the
 * tray, and tests, benchmarks and the fault campaign. A renderer never gets it: both shells
 * resolve a caller from the session and always pass it.
 */
export const IN_PROCESS_OWNER: Caller = Object.freeze({
  role: 'owner',
  name: null,
  sessionId: 'in-process',
  via: 'desktop',
});

/** A handler's refusal: the caller may use the channel but not on this item (another's sale). */
export class ForbiddenError extends AppError<'FORBIDDEN'> {
  constructor(message: string) {
    super('FORBIDDEN', message);
    this.name = 'ForbiddenError';
  }
}
