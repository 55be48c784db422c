import type { BridgeEvent, BridgeResult, WindowApi } from '#shared/bridge/contract';
import { SESSION_HEADER } from '#shared/bridge/wire';
import {
  createEventStream,
  refusalCodeOf,
  type ConnectionView,
  type EventStreamOptions,
} from './event-stream';
import { buildWindowApi } from './window-api';

export const TOKEN_KEY = 'till.token';
export const SESSION_KEY = 'till.session';
/** Set while this tab holds a customer display's token: it shows the display and calls nothing. */
export const DISPLAY_ONLY_KEY = 'till.display-only';
const TOKEN_IN_HASH = /(?:^|[#&])token=([A-Za-z0-9_-]+)/;
const DISPLAY_TOKEN_IN_HASH = /(?:^|[#&])display=([A-Za-z0-9_-]+)/;

/** The token in a browser shell address (`…/#token=…`), or null. */
export function tokenInUrl(url: string): string | null {
  const hash = url.includes('#') ? url.slice(url.indexOf('#')) : '';
  return TOKEN_IN_HASH.exec(hash)?.[1] ?? null;
}

/**
 * The browser shell's token: it arrives in the URL fragment (never sent to a server or a log),
 * is kept for this tab so a reload works, and is removed from the address bar. A customer
 * display's token (`display=`) marks the tab display-only; a till's token (`token=`) unmarks it.
 */
export function takeToken(location: Location, storage: Storage, history: History): string | null {
  const display = DISPLAY_TOKEN_IN_HASH.exec(location.hash)?.[1];
  const till = TOKEN_IN_HASH.exec(location.hash)?.[1];
  const given = display ?? till;
  if (given) {
    storage.setItem(TOKEN_KEY, given);
    if (display) storage.setItem(DISPLAY_ONLY_KEY, '1');
    else storage.removeItem(DISPLAY_ONLY_KEY);
    history.replaceState(null, '', location.pathname + location.search);
    return given;
  }
  return storage.getItem(TOKEN_KEY);
}

/** Whether this tab holds a customer display's token (see takeToken). */
export function isDisplayOnly(storage: Storage): boolean {
  return storage.getItem(DISPLAY_ONLY_KEY) === '1';
}

/** Where this tab keeps a value main gave it: the session id, or the token after a rotation. */
export interface SessionSlot {
  get(): string | null;
  set(value: string): void;
}

/** The tab's own storage: a reload keeps the sign-in, another tab signs in on its own. */
export function storageSlot(storage: Storage, key: string = SESSION_KEY): SessionSlot {
  return {
    get: () => storage.getItem(key),
    set: (value) => storage.setItem(key, value),
  };
}

/** Where takeToken keeps the token, so that a rotated one is what a reload uses. */
export function tokenSlot(storage: Storage): SessionSlot {
  return storageSlot(storage, TOKEN_KEY);
}

/** A slot in memory, for tests and for a page with no storage. */
export function memorySlot(initial: string | null = null): SessionSlot {
  let value = initial;
  return {
    get: () => value,
    set: (next) => {
      value = next;
    },
  };
}

/** How the page is connected to main, for the banner and for re-reading after a gap. */
export interface Connection {
  view(): ConnectionView;
  subscribe(listener: (view: ConnectionView) => void): () => void;
  /**
   * Main answered again after an outage (`resync: false`: what was missed was replayed), or
   * said the page must re-read its state (`resync: true`: main restarted, or the gap was too old).
   */
  onReconnected(listener: (info: { readonly resync: boolean }) => void): () => void;
}

const connections = new WeakMap<WindowApi, Connection>();

/** The connection of a browser shell's bridge; null for the desktop app's (it cannot be lost). */
export function connectionOf(bridge: WindowApi): Connection | null {
  return connections.get(bridge) ?? null;
}

/** A bridge built on another (a wrapper) has the other's connection. */
export function shareConnection(from: WindowApi, to: WindowApi): void {
  const connection = connections.get(from);
  if (connection) connections.set(to, connection);
}

export interface HttpBridgeOptions {
  /** Where a rotated token is kept for this tab (so that a reload uses the new one). */
  readonly tokenSlot?: SessionSlot;
  readonly stream?: Pick<EventStreamOptions, 'now' | 'silenceMs'>;
  /**
   * Main refused the token (401) on a call or the stream, with this code: the page may forget a
   * token that will never work again (a removed counter's).
   */
  readonly onRefused?: (code: string | null) => void;
}

const OFFLINE: BridgeResult<never> = {
  ok: false,
  error: { code: 'BRIDGE_OFFLINE', message: 'The till service is not reachable.' },
};

/**
 * The window API over HTTP and server-sent events, for the browser shell. Each call carries the
 * token and this tab's session id; main answers with the id it used, which the tab keeps. The
 * event stream reconnects with backoff and replays what it missed (connectionOf tells how it is).
 */
export function createHttpBridge(
  initialToken: string,
  fetchImpl: typeof fetch = fetch,
  slot: SessionSlot = storageSlot(window.sessionStorage),
  options: HttpBridgeOptions = {},
): WindowApi {
  let token = initialToken;
  const listeners = new Set<(event: BridgeEvent) => void>();
  /** The refusal code last told to onRefused (undefined: none since the last good answer). */
  let toldRefusal: string | null | undefined;
  const reconnectListeners = new Set<(info: { readonly resync: boolean }) => void>();
  /** The first call without a session: the others wait for the id it brings back. */
  let opening: Promise<unknown> | null = null;

  const stream = createEventStream({
    fetchImpl,
    request: () => {
      const session = slot.get();
      return {
        url: `/api/events${session ? `?session=${encodeURIComponent(session)}` : ''}`,
        headers: { authorization: `Bearer ${token}` },
      };
    },
    onEvent: (event) => {
      for (const listener of listeners) listener(event);
    },
    onReady: ({ resync, recovered }) => {
      if (!resync && !recovered) return;
      for (const listener of reconnectListeners) listener({ resync });
    },
    ...options.stream,
  });
  // Told once per refusal, whichever way it came (a call's answer or the stream's).
  stream.subscribe((view) => {
    if (view.state !== 'refused') toldRefusal = undefined;
    else if (view.refusedWith !== toldRefusal) {
      toldRefusal = view.refusedWith;
      options.onRefused?.(view.refusedWith);
    }
  });

  function keepSession(given: string | null): void {
    if (!given || given === slot.get()) return;
    slot.set(given);
    // The event stream hears what this session may see: open it again as the new session.
    stream.restart();
  }

  /** This page rotated the token: it goes on with the new one (other pages are refused). */
  function adoptRotatedToken(value: unknown): void {
    const url =
      typeof value === 'object' && value !== null && 'url' in value ? value.url : undefined;
    const next = typeof url === 'string' ? tokenInUrl(url) : null;
    if (!next) return;
    token = next;
    options.tokenSlot?.set(next);
    stream.restart();
  }

  async function send(name: string, input: unknown): Promise<BridgeResult<unknown>> {
    let result: BridgeResult<unknown>;
    let response: Response;
    try {
      const session = slot.get();
      response = await fetchImpl(`/api/call/${name}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          ...(session ? { [SESSION_HEADER]: session } : {}),
        },
        body: JSON.stringify(input ?? {}),
      });
      result = (await response.json()) as BridgeResult<unknown>;
    } catch {
      // Main did not answer: say so on the page at once, and look for it again.
      stream.callFailed();
      return OFFLINE;
    }
    if (response.status === 401) stream.refused(refusalCodeOf(result));
    keepSession(response.headers.get(SESSION_HEADER));
    if (name === 'rotateShellToken' && result.ok) adoptRotatedToken(result.value);
    return result;
  }

  const api = buildWindowApi(
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
      stream.start();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stream.stop();
      };
    },
  );
  connections.set(api, {
    view: () => stream.view(),
    subscribe: (listener) => stream.subscribe(listener),
    onReconnected(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
  });
  return api;
}
