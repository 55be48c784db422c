import {
  buildWindowApi,
  type BridgeEvent,
  type BridgeResult,
  type WindowApi,
} from '../../../shared/bridge/contract';

const TOKEN_KEY = 'till.token';

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

/** The window API over HTTP and server-sent events, for the browser shell. */
export function createHttpBridge(token: string, fetchImpl: typeof fetch = fetch): WindowApi {
  const listeners = new Set<(event: BridgeEvent) => void>();
  let source: EventSource | null = null;

  function connect(): void {
    source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
    source.onmessage = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as BridgeEvent;
      for (const listener of listeners) listener(event);
    };
  }

  return buildWindowApi(
    async (name, input): Promise<BridgeResult<unknown>> => {
      try {
        const response = await fetchImpl(`/api/call/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(input ?? {}),
        });
        return (await response.json()) as BridgeResult<unknown>;
      } catch {
        return {
          ok: false,
          error: { code: 'BRIDGE_OFFLINE', message: 'The till service is not reachable.' },
        };
      }
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
