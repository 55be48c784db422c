import { z } from 'zod';
import type { SessionView } from '../session-types';
import { channel, noInput } from './channel';

/** A new PIN: digits only, so that it can be typed on the keypad. */
const newPin = z.string().regex(/^\d{4,12}$/, 'A PIN is 4 to 12 digits');
/** A PIN as typed at sign-in: whatever it is, a wrong one counts towards the lock-out. */
const pinAttempt = z.string().min(1, 'Enter the PIN').max(64, 'Enter the PIN');
const cashierName = z.string().trim().min(1, 'Choose a cashier').max(60);

/** Sessions and roles (main keeps the sessions; a PIN never leaves main, not even hashed). */
export const sessionChannels = {
  getSession: channel<SessionView>()(noInput, 'open'),
  /** A cashier signs in at this counter by name (and PIN, when the owner asks for them). */
  signIn: channel<SessionView>()(
    z.object({ name: cashierName, pin: pinAttempt.optional() }).strict(),
    'open',
  ),
  /** Ends this counter's cashier sign-in and owner unlock. */
  signOut: channel<SessionView>()(noInput, 'open'),
  unlockOwner: channel<SessionView>()(z.object({ pin: pinAttempt }).strict(), 'open'),
  /** Ends the owner unlock; a signed-in cashier stays signed in. */
  lock: channel<SessionView>()(noInput, 'open'),
  /** Sets the owner PIN, or changes it (then the current one is needed). */
  setOwnerPin: channel<SessionView>()(
    z.object({ pin: newPin, currentPin: pinAttempt.optional() }).strict(),
  ),
  removeOwnerPin: channel<SessionView>()(z.object({ currentPin: pinAttempt }).strict()),
  /** Sets (or with null, removes) one cashier's PIN. */
  setCashierPin: channel<SessionView>()(
    z.object({ name: cashierName, pin: newPin.nullable() }).strict(),
  ),
} as const;
