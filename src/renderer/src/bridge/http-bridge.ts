import {
  buildWindowApi,
  SESSION_HEADER,
  type BridgeEvent,
  type BridgeResult,
  type WindowApi,
} from '../../../shared/bridge/contract';

const TOKEN_KEY = 'till.token';
const SESSION_KEY = 'till.session';

/**
 * The browser shell's token: it arrives in the URL fragment (never sent to a server or a log),
 * is kept for this tab so a reload works, and is removed from the address bar.
 */
export function takeToken(location: Location, storage: Storage, history: History): string | null {
  const match = /(?:^|[#&])token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match?.[1]) {
    storage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, '', location.pathname + location.search);
    return match[1];
  }
  return storage.getItem(TOKEN_KEY);
}

/** Where this tab keeps the session id main gave it (who is signed in lives in main). */
export interface SessionSlot {
  get(): string | null;
  set(sessionId: string): void;
}

/** The tab's own storage: a reload keeps the sign-in, another tab signs in on its own. */
export function storageSlot(storage: Storage): SessionSlot {
  return {
    get: () => storage.getItem(SESSION_KEY),
    set: (sessionId) => storage.setItem(SESSION_KEY, sessionId),
  };
}

/** A slot in memory, for tests and for a page with no storage. */
export function memorySlot(): SessionSlot {
  let value: string | null = null;
  return {
    get: () => value,
    set: (sessionId) => {
      value = sessionId;
    },
  };
}

/**
 * The window API over HTTP and server-sent events, for the browser shell. Each call carries the
 * token and this tab's session id; main answers with the id it used, which the tab keeps.
 */
export function createHttpBridge(
  token: string,
  fetchImpl: typeof fetch = fetch,
  slot: SessionSlot = storageSlot(window.sessionStorage),
): WindowApi {
  const listeners = new Set<(event: BridgeEvent) => void>();
  let source: EventSource | null = null;
  /** The first call without a session: the others wait for the id it brings back. */
  let opening: Promise<unknown> | null = null;

  function connect(): void {
    const session = slot.get();
    const query = `token=${encodeURIComponent(token)}${session ? `&session=${encodeURIComponent(session)}` : ''}`;
    source = new EventSource(`/api/events?${query}`);
    source.onmessage = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as BridgeEvent;
      for (const listener of listeners) listener(event);
    };
  }

  function keepSession(given: string | null): void {
    if (!given || given === slot.get()) return;
    slot.set(given);
    // The event stream hears what this session may see: reconnect it as the new session.
    if (source) {
      source.close();
      connect();
    }
  }

  async function send(name: string, input: unknown): Promise<BridgeResult<unknown>> {
    try {
      const session = slot.get();
      const response = await fetchImpl(`/api/call/${name}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          ...(session ? { [SESSION_HEADER]: session } : {}),
        },
        body: JSON.stringify(input ?? {}),
      });
      keepSession(response.headers.get(SESSION_HEADER));
      return (await response.json()) as BridgeResult<unknown>;
    } catch {
      return {
        ok: false,
        error: { code: 'BRIDGE_OFFLINE', message: 'The till service is not reachable.' },
      };
    }
  }

  return buildWindowApi(
    async (name, input): Promise<BridgeResult<unknown>> => {
      if (slot.get() === null && opening) await opening;
      if (slot.get() !== null) return send(name, input);
      const call = send(name, input);
      opening = call.finally(() => {
        opening = null;
      });
      return call;
    },
    (listener) => {
      listeners.add(listener);
      if (!source) connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          source?.close();
          source = null;
        }
      };
    },
  );
}
