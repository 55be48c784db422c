import type { SessionView } from '#shared/bridge/contract';
import { useBridgeCall } from '../../hooks/use-bridge-call';
import { useSession } from '../../session-context';

/** The sign-in screen's call: a cashier's name (and PIN when the owner asks for PINs). */
export function useSignIn() {
  const { apply } = useSession();
  const call = useBridgeCall<SessionView>();
  async function signIn(name: string, pin?: string): Promise<void> {
    const answer = await call.run((bridge) =>
      bridge.signIn(pin === undefined ? { name } : { name, pin }),
    );
    if (answer?.ok) apply(answer.value);
  }
  return { busy: call.busy, error: call.error, showError: call.showError, signIn };
}
