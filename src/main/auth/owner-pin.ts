/**
 * The owner PIN: unlocking, setting, changing and removing it. It is typed at the hub only
 * (never tried from a counter), and a new or removed PIN locks every other owner unlock.
 */
import type { Caller } from '#shared/bridge/contract';
import { ForbiddenError, pairedCounterOf } from '#main/auth/caller';
import { AuthError } from './auth-errors';
import { HUB_DEVICE, OWNER, type PinDevice } from './pin-store';
import { recordOf, type RolesState } from './roles-state';
import { OWNER_IDLE_MS } from './sessions';

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

export async function unlockOwner(state: RolesState, caller: Caller, pin: string): Promise<void> {
  refuseOwnerPinAtCounter(caller);
  if (!state.pins.isSet(OWNER)) return; // no PIN: everyone is owner already
  await state.pins.verify(OWNER, pin, pinDeviceOf(caller));
  recordOf(state, caller).ownerUntil = state.now() + OWNER_IDLE_MS;
}

export async function setOwnerPin(
  state: RolesState,
  caller: Caller,
  pin: string,
  currentPin: string | undefined,
): Promise<void> {
  const { pins, book } = state;
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
  recordOf(state, caller).ownerUntil = state.now() + OWNER_IDLE_MS;
}

export async function removeOwnerPin(
  state: RolesState,
  caller: Caller,
  currentPin: string,
): Promise<void> {
  const { pins, book } = state;
  refuseOwnerPinAtCounter(caller);
  if (!pins.isSet(OWNER)) return;
  await verifyAs('currentPin', () => pins.verify(OWNER, currentPin, pinDeviceOf(caller)));
  await pins.set(OWNER, null);
  book.lockAll();
}
