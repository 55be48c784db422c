import { useCallback, useEffect, useRef, useState } from 'react';
import type { HubView, PairingLinkView } from '#shared/hub';
import { failureOf, useBridgeCall } from '../../hooks/use-bridge-call';

/** The Counters screen's calls to main: the hub as main has it, and each change to it. */

/** How often the list is read again while the screen is open (last contact, new pairings). */
export const HUB_REFRESH_MS = 5_000;

/** The hub, read now and every HUB_REFRESH_MS; `apply` takes a view a change answered with. */
export function useHub() {
  const { run } = useBridgeCall<HubView>();
  const [hub, setHub] = useState<HubView | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Bumped by every answer taken: a slow poll must not undo what the owner just changed.
  const version = useRef(0);

  const load = useCallback(async () => {
    const mine = ++version.current;
    const answer = await run((bridge) => bridge.getHub({}));
    if (!answer || mine !== version.current) return;
    if (answer.ok) {
      setHub(answer.value);
      setError(null);
    } else setError(failureOf(answer.error).words);
  }, [run]);

  const apply = useCallback((view: HubView) => {
    version.current += 1;
    setHub(view);
    setError(null);
  }, []);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- load sets state only after an await (a known false positive: facebook/react#34905).
    void load();
    const timer = setInterval(() => void load(), HUB_REFRESH_MS);
    return () => {
      clearInterval(timer);
      // Answers still on their way belong to a screen that is gone.
      version.current += 1;
    };
  }, [load]);

  /** `reload`: read the hub again now (after a change made elsewhere, as a settings save). */
  return { hub, error, apply, reload: load };
}

/** A change to the hub; its answer (the whole hub) goes to `onHub`. */
function useHubChange(onHub: (view: HubView) => void) {
  const call = useBridgeCall<HubView>();
  return {
    ...call,
    /** Whether main made the change. */
    change: async (...args: Parameters<typeof call.run>): Promise<boolean> => {
      const answer = await call.run(...args);
      if (answer?.ok) onHub(answer.value);
      return answer?.ok === true;
    },
  };
}

/** The LAN listener's switch. */
export function useLanSwitch(onHub: (view: HubView) => void) {
  const call = useHubChange(onHub);
  const toggle = (enabled: boolean) => call.change((bridge) => bridge.setLanListener({ enabled }));
  return { busy: call.busy, error: call.error, toggle };
}

/** Removes a paired counter: its token stops working at once. */
export function useRevokeCounter(counterId: number, onHub: (view: HubView) => void) {
  const call = useHubChange(onHub);
  const revoke = () => call.change((bridge) => bridge.revokeCounter({ counterId }));
  return { busy: call.busy, error: call.error, showError: call.showError, revoke };
}

/** Renames a counter or changes its till id (main checks the id is unique in the shop). */
export function useUpdateCounter(counterId: number, onHub: (view: HubView) => void) {
  const call = useHubChange(onHub);
  const update = (change: { readonly name?: string; readonly tillId?: string }) =>
    call.change((bridge) => bridge.updateCounter({ counterId, ...change }));
  return {
    busy: call.busy,
    error: call.error,
    errorField: call.errorField,
    showError: call.showError,
    update,
  };
}

/** A one-time pairing link for a new counter's name. */
export function usePairingLink() {
  const call = useBridgeCall<PairingLinkView>();
  /** Whether main made the link. */
  async function create(name: string): Promise<boolean> {
    const answer = await call.run((bridge) => bridge.createPairingLink({ name }));
    return answer?.ok === true;
  }
  return {
    busy: call.busy,
    error: call.error,
    errorField: call.errorField,
    showError: call.showError,
    link: call.result,
    create,
  };
}
