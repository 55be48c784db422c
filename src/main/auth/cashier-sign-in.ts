/**
 * Cashiers: signing in and out at a session (with a PIN when the owner asks for one) and the
 * owner setting a cashier's PIN. A name is one on the shop's cashier list, in any case.
 */
import type { Caller } from '#shared/bridge/contract';
import { AuthError } from './auth-errors';
import { pinDeviceOf } from './owner-pin';
import { cashierSubject } from './pin-store';
import { canonicalName, recordOf, type RolesState } from './roles-state';

export async function signInCashier(
  state: RolesState,
  caller: Caller,
  name: string,
  pin: string | undefined,
): Promise<void> {
  const canonical = canonicalName(state, name);
  if (canonical === null) {
    throw new AuthError(
      'UNKNOWN_CASHIER',
      `${name.trim()} is not on this till's cashier list. The owner adds cashiers in Settings.`,
      'name',
    );
  }
  if (state.options.cashierPinsRequired()) {
    if (pin === undefined || pin === '') {
      throw new AuthError('PIN_REQUIRED', `Enter ${canonical}'s PIN.`, 'pin');
    }
    await state.pins.verify(cashierSubject(canonical), pin, pinDeviceOf(caller));
  }
  const record = recordOf(state, caller);
  record.cashier = canonical;
  // A new person at the counter: an owner unlock left open does not carry over.
  record.ownerUntil = null;
}

export function signOutCashier(state: RolesState, caller: Caller): void {
  const record = recordOf(state, caller);
  record.cashier = null;
  record.ownerUntil = null;
}

export async function setCashierPin(
  state: RolesState,
  name: string,
  pin: string | null,
): Promise<void> {
  const canonical = canonicalName(state, name);
  if (canonical === null) {
    throw new AuthError(
      'UNKNOWN_CASHIER',
      `${name.trim()} is not on the cashier list: add the name in Shop and till first.`,
      'name',
    );
  }
  await state.pins.set(cashierSubject(canonical), pin);
}
