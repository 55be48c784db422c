import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { BridgeResult, ChannelName, SessionView, WindowApi } from '#shared/bridge/contract';
import { shareConnection } from './bridge/http-bridge';
import { buildWindowApi } from './bridge/window-api';
import { BridgeProvider } from './bridge-context';
import { failureOf } from './hooks/use-bridge-call';

/** Codes that mean "who you are changed" (an unlock ran out, the owner set a PIN): re-read it. */
const SESSION_CODES = new Set(['FORBIDDEN', 'SIGNED_OUT']);

export interface SessionState {
  /** Null until main has answered (or when it could not be asked). */
  readonly session: SessionView | null;
  readonly error: string | null;
  /** Asks main again who this page is. */
  readonly refresh: () => Promise<void>;
  /** Takes the session a sign-in, unlock, lock or PIN change answered with. */
  readonly apply: (view: SessionView) => void;
}

const SessionContext = createContext<SessionState | null>(null);

/**
 * Whether a session is a till waiting for someone to sign in. A counter paired to a hub never
 * is: its pairing is its sign-in.
 */
export function isSignedOut(session: SessionView | null): boolean {
  return (
    session !== null && !session.counter && session.role === 'cashier' && session.name === null
  );
}

/**
 * The same window API, re-reading the session whenever main refuses a call by role: main is
 * the judge, and the screens follow what it says.
 */
export function watchRefusals(bridge: WindowApi, onRefused: () => void): WindowApi {
  const watched = buildWindowApi(async (name: ChannelName, input: unknown) => {
    const call = bridge[name] as (input: unknown) => Promise<BridgeResult<unknown>>;
    const result = await call(input);
    if (!result.ok && SESSION_CODES.has(result.error.code)) onRefused();
    return result;
  }, bridge.subscribe);
  // The same connection: screens read the service's clock and reachability through it.
  shareConnection(bridge, watched);
  return watched;
}

/**
 * Holds who this page is (main keeps the session; the page only shows it) and gives the screens
 * a bridge that notices when main refuses a call by role.
 */
export function SessionBridgeProvider({
  bridge,
  children,
}: {
  readonly bridge: WindowApi;
  readonly children: ReactNode;
}) {
  const [session, setSession] = useState<SessionView | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const result = await bridge.getSession({});
    if (result.ok) {
      setSession(result.value);
      setError(null);
    } else {
      setError(failureOf(result.error).words);
    }
  }, [bridge]);

  const watched = useMemo(() => watchRefusals(bridge, () => void refresh()), [bridge, refresh]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- refresh sets state only after an await (a known false positive: facebook/react#34905).
    void refresh();
    const onFocus = () => void refresh();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refresh]);

  // An owner unlock ends after a quiet spell: look again when it would, so the screens follow.
  const ownerUntil = session?.ownerUntil ?? null;
  useEffect(() => {
    if (ownerUntil === null) return;
    const timer = setTimeout(() => void refresh(), Math.max(1000, ownerUntil - Date.now() + 1000));
    return () => clearTimeout(timer);
  }, [ownerUntil, refresh]);

  const state = useMemo<SessionState>(
    () => ({ session, error, refresh, apply: setSession }),
    [session, error, refresh],
  );
  return (
    <BridgeProvider bridge={watched}>
      <SessionContext.Provider value={state}>{children}</SessionContext.Provider>
    </BridgeProvider>
  );
}

/** The page's session; outside the provider (a screen rendered alone) no session is known. */
export function useSession(): SessionState {
  return useContext(SessionContext) ?? NO_PROVIDER;
}

const NO_PROVIDER: SessionState = {
  session: null,
  error: null,
  refresh: () => Promise.resolve(),
  apply: () => undefined,
};
