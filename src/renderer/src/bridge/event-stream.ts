import type { BridgeEvent } from '#shared/bridge/contract';
import { STREAM_SILENCE_MS } from '#shared/bridge/heartbeat';
import { reconnectDelay } from './backoff';
import { createViewStore, INITIAL_VIEW, type ConnectionView } from './connection-view';
import { effectOf, readMessages } from './stream-messages';
import { createWatchdog, type WatchdogTimers } from './stream-watchdog';

export type { ConnectionState, ConnectionView } from './connection-view';
export { serverTimeOf } from './stream-messages';
export { STREAM_SILENCE_MS };

/**
 * How long a try may wait for its first byte while the page is not online (its first try, or
 * retries after a loss: nothing claims "live" meanwhile). A slow phone or network gets longer
 * than the silence that ends a live stream; an online page's new try gets only that silence.
 */
export const STREAM_CONNECT_MS = 5_000;

export interface StreamRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface EventStreamOptions {
  readonly fetchImpl: typeof fetch;
  /** The stream's address and headers, read at every try (the session or token may change). */
  readonly request: () => StreamRequest;
  readonly onEvent: (event: BridgeEvent) => void;
  /**
   * Main answered the stream. `recovered`: after an outage. `resync`: what was missed cannot be
   * replayed (main restarted, or the gap is too old), so the page must re-read its state.
   */
  readonly onReady: (ready: { readonly resync: boolean; readonly recovered: boolean }) => void;
  readonly now?: () => number;
  /** No byte for this long on an open stream: the link is lost (STREAM_SILENCE_MS). */
  readonly silenceMs?: number;
  /** The watchdog's timers (tests give fake ones); the page's own by default. */
  readonly timers?: WatchdogTimers;
}

export interface EventStream {
  start(): void;
  stop(): void;
  /** Opens the stream again now (a new session or token), asking for what it missed. */
  restart(): void;
  /** A call could not reach main: the stream is likely dead too, so try again at once. */
  callFailed(): void;
  /** Main refused the token (with this code, when it said one): stop trying. */
  refused(code?: string | null): void;
  view(): ConnectionView;
  subscribe(listener: (view: ConnectionView) => void): () => void;
}

/** The code of a refusal's body (`{ ok: false, error: { code } }` or `{ code }`), or null. */
export function refusalCodeOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const error = 'error' in body ? body.error : body;
  if (typeof error !== 'object' || error === null || !('code' in error)) return null;
  return typeof error.code === 'string' ? error.code : null;
}

async function refusalCodeOfResponse(response: Response): Promise<string | null> {
  try {
    return refusalCodeOf(await response.json());
  } catch {
    return null;
  }
}

/**
 * The browser shell's event stream over fetch (not EventSource, which hides the status of a
 * refused request and retries on its own schedule): it sends Last-Event-ID on every reconnect,
 * calls the link lost when it ends, fails or goes silent (the service's heartbeat stops), retries
 * with backoff (0.5, 1, 2, 4, then every 8 s) and says which state it is in.
 */
export function createEventStream(options: EventStreamOptions): EventStream {
  // Called as a plain function: a browser's fetch refuses to run with another `this`.
  const { fetchImpl } = options;
  const now = options.now ?? (() => Date.now());
  const silenceMs = options.silenceMs ?? STREAM_SILENCE_MS;
  const store = createViewStore();
  const watchdog = createWatchdog({ silenceMs, now, timers: options.timers, onSilent: lost });
  let running = false;
  let lastId: string | null = null;
  /** Bumped whenever a connection is dropped: answers for an older one are ignored. */
  let generation = 0;
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  function dropConnection(): void {
    generation += 1;
    controller?.abort();
    controller = null;
    watchdog.stop();
  }

  function cancelRetry(): void {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
  }

  function lost(): void {
    const view = store.get();
    if (!running || view.state === 'refused') return;
    dropConnection();
    cancelRetry();
    const attempts = view.state === 'offline' ? view.attempts + 1 : 0;
    const delay = reconnectDelay(attempts);
    store.set({ state: 'offline', lostAt: view.lostAt ?? now(), attempts, retryAt: now() + delay });
    retryTimer = setTimeout(connect, delay);
  }

  async function read(response: Response, mine: number): Promise<void> {
    if (mine !== generation) return;
    if (response.status === 401) {
      const code = await refusalCodeOfResponse(response);
      if (mine === generation) refused(code);
      return;
    }
    if (!response.ok || !response.body) return lost();
    const ended = await readMessages(response.body, {
      current: () => mine === generation,
      onBytes: () => watchdog.heard(),
      onMessage: (message) => {
        if (message.id !== null) lastId = message.id;
        const effect = effectOf(message, store.get(), now());
        if (effect.change) store.set(effect.change);
        if (effect.ready) options.onReady(effect.ready);
        if (effect.event) options.onEvent(effect.event);
      },
    });
    // The server ended the stream (it is stopping): main is gone until a try says otherwise.
    if (ended === 'ended' && mine === generation) lost();
  }

  function connect(): void {
    retryTimer = null;
    dropConnection();
    const mine = generation;
    const own = new AbortController();
    controller = own;
    const request = options.request();
    // A live page's new try must answer as fast as a live stream; a page that is not yet (or no
    // longer) live may wait longer for a slow phone or network.
    watchdog.watch(
      store.get().state === 'online' ? silenceMs : Math.max(silenceMs, STREAM_CONNECT_MS),
    );
    fetchImpl(request.url, {
      headers: {
        ...request.headers,
        accept: 'text/event-stream',
        ...(lastId ? { 'last-event-id': lastId } : {}),
      },
      cache: 'no-store',
      signal: own.signal,
    })
      .then((response) => read(response, mine))
      .catch(() => {
        if (mine === generation) lost();
      });
  }

  function refused(code: string | null = null): void {
    dropConnection();
    cancelRetry();
    // A refusal that names no code keeps the one already known.
    const view = store.get();
    const known = view.state === 'refused' ? view.refusedWith : null;
    store.set({ state: 'refused', retryAt: null, refusedWith: code ?? known });
  }

  return {
    start() {
      if (running) return;
      running = true;
      // A refused token stays refused: a screen mounting again must not start a retry loop.
      if (store.get().state !== 'refused') connect();
    },
    stop() {
      running = false;
      dropConnection();
      cancelRetry();
      const view = store.get();
      if (view.state !== 'refused') store.set({ ...INITIAL_VIEW, recoveries: view.recoveries });
    },
    restart() {
      if (!running) return;
      cancelRetry();
      if (store.get().state === 'refused') store.set({ state: 'connecting', refusedWith: null });
      connect();
    },
    callFailed() {
      const { state } = store.get();
      if (running && (state === 'online' || state === 'connecting')) lost();
    },
    refused,
    view: () => store.get(),
    subscribe: (listener) => store.subscribe(listener),
  };
}
