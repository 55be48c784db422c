import { useEffect, useState } from 'react';
import type { SessionView } from '#shared/bridge/contract';
import type { StoreSpaceView } from '#shared/views';
import { useBridgeEvent } from '../bridge-context';
import { useBridgeCall } from '../hooks/use-bridge-call';
import { useSession } from '../session-context';

/**
 * The header's calls to main: who is at the till (owner unlock, lock, sign out) and whether
 * its disk is full. Main keeps the session; a changed one is applied to the page's.
 */

/** The owner PIN form's call: main checks the PIN (with its lock-out). */
export function useOwnerUnlock() {
  const { apply } = useSession();
  const call = useBridgeCall<SessionView>();
  /** Whether main unlocked the till. */
  async function unlock(pin: string): Promise<boolean> {
    const answer = await call.run((bridge) => bridge.unlockOwner({ pin }));
    if (!answer?.ok) return false;
    apply(answer.value);
    return true;
  }
  return { busy: call.busy, error: call.error, showError: call.showError, unlock };
}

/** "Lock" ends the owner unlock; "Sign out" frees the counter. */
export function useSessionChange() {
  const { apply } = useSession();
  const call = useBridgeCall<SessionView>();
  async function change(to: 'lock' | 'signOut'): Promise<void> {
    const answer = await call.run((bridge) =>
      to === 'lock' ? bridge.lock({}) : bridge.signOut({}),
    );
    if (answer?.ok) apply(answer.value);
  }
  return { error: call.error, change };
}

/** The till's disk space: read when the page opens, then followed through main's events. */
export function useStoreSpace(): StoreSpaceView | null {
  const { run } = useBridgeCall<StoreSpaceView | null>();
  const [space, setSpace] = useState<StoreSpaceView | null>(null);
  useEffect(() => {
    void run(async (bridge) => {
      const status = await bridge.getStatus({});
      return status.ok ? { ok: true, value: status.value.storeSpace ?? null } : status;
    }).then((answer) => {
      if (answer?.ok) setSpace(answer.value);
    });
  }, [run]);
  useBridgeEvent('store-space', setSpace);
  return space;
}
