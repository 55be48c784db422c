import { useState } from 'react';
import type { SessionView } from '#shared/bridge/contract';
import { OwnerUnlock } from './owner-unlock';
import { useSessionChange } from './use-header-calls';

/** Who is at this till, in a few words. */
export function describeSession(session: SessionView): string {
  if (session.counter) {
    const label = `Counter: ${session.counter.name}`;
    return session.name ? `${label} · ${session.name}` : label;
  }
  if (!session.ownerPinSet)
    return session.name ? `${session.name} · owner (no PIN)` : 'Owner (no PIN)';
  if (session.role === 'owner') return session.name ? `${session.name} · owner unlocked` : 'Owner';
  return session.name ? `Cashier: ${session.name}` : 'Signed out';
}

/**
 * The header's session line: who is signed in, and the buttons that change it. "Lock" ends the
 * owner unlock (a cashier signed in here stays signed in); "Sign out" frees the counter.
 */
export function SessionBar({ session }: { readonly session: SessionView }) {
  const [unlocking, setUnlocking] = useState(false);
  const { error, change: run } = useSessionChange();

  // A counter is a cashier whatever the PINs: the owner's work is done at the hub.
  const counter = Boolean(session.counter);
  const canLock = !counter && session.ownerPinSet && session.role === 'owner';
  const canUnlock =
    !counter && session.ownerPinSet && session.role === 'cashier' && session.name !== null;
  return (
    <div className="session-bar" data-testid="session-bar">
      <span className="session-who" data-testid="session-who">
        {describeSession(session)}
      </span>
      {canLock && (
        <button type="button" className="button secondary small" onClick={() => void run('lock')}>
          Lock
        </button>
      )}
      {canUnlock && (
        <button
          type="button"
          className="button secondary small"
          aria-expanded={unlocking}
          onClick={() => setUnlocking((open) => !open)}
        >
          Owner unlock
        </button>
      )}
      {session.ownerPinSet && session.name !== null && (
        <button
          type="button"
          className="button secondary small"
          onClick={() => void run('signOut')}
        >
          Sign out
        </button>
      )}
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
      {canUnlock && unlocking && <OwnerUnlock autoFocus onUnlocked={() => setUnlocking(false)} />}
    </div>
  );
}
