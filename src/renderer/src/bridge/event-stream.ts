import type { BridgeEvent } from '#shared/bridge/contract';
import { reconnectDelay } from './backoff';
import { createSseParser, type SseMessage } from './sse-parser';

/**
 * 'connecting': the first try of this page. 'online': main answered the stream. 'offline': main
 * was lost, tries go on with backoff. 'refused': main refused this page's token (rotated, or a
 * counter the owner removed): no more tries until the page has a new one.
 */
export type ConnectionState = 'connecting' | 'online' | 'offline' | 'refused';

export interface ConnectionView {
  readonly state: ConnectionState;
  /** When main was lost (offline), or null. */
  readonly lostAt: number | null;
  /** Tries that failed since then (the next wait grows with it). */
  readonly attempts: number;
  /** When the next try starts (offline), or null. */
  readonly retryAt: number | null;
  /** How many times main came back after being lost. */
  readonly recoveries: number;
  /** The code main refused the token with ('UNAUTHORISED', 'COUNTER_REVOKED'), when refused. */
  readonly refusedWith: string | null;
  /**
   * The till service's clock minus this device's, measured when the stream opens and with every
   * event and ping after; null until first measured. Countdowns count against the service's time.
   */
  readonly clockOffsetMs: number | null;
}

/** The shell pings every 15 s: this long without a byte means the link is dead. */
export const STREAM_SILENCE_MS = 40_000;

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
  readonly silenceMs?: number;
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

const INITIAL: ConnectionView = {
  state: 'connecting',
  lostAt: null,
  attempts: 0,
  retryAt: null,
  recoveries: 0,
  refusedWith: null,
  clockOffsetMs: null,
};

/** The till service's time in a ready or time frame (`{"serverTime": ms}`), or null. */
export function serverTimeOf(data: string): number | null {
  try {
    const parsed = JSON.parse(data) as { serverTime?: unknown };
    return typeof parsed.serverTime === 'number' && Number.isFinite(parsed.serverTime)
      ? parsed.serverTime
      : null;
  } catch {
    return null;
  }
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

function isReady(data: string): { readonly resync: boolean } {
  try {
    const parsed = JSON.parse(data) as { resync?: unknown };
    return { resync: parsed.resync === true };
  } catch {
    // An unreadable ready frame: re-reading is the safe side.
    return { resync: true };
  }
}

/**
 * The browser shell's event stream over fetch (not EventSource, which hides the status of a
 * refused request and retries on its own schedule): it sends Last-Event-ID on every reconnect,
 * retries with backoff (0.5, 1, 2, 4, then every 8 s) and says which state it is in.
 */
export function createEventStream(options: EventStreamOptions): EventStream {
  // Called as a plain function: a browser's fetch refuses to run with another `this`.
  const { fetchImpl } = options;
  const now = options.now ?? (() => Date.now());
  const silenceMs = options.silenceMs ?? STREAM_SILENCE_MS;
  const listeners = new Set<(view: ConnectionView) => void>();
  let view: ConnectionView = INITIAL;
  let running = false;
  let lastId: string | null = null;
  /** Bumped whenever a connection is dropped: answers for an older one are ignored. */
  let generation = 0;
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let silenceTimer: ReturnType<typeof setTimeout> | null = null;

  function set(next: Partial<ConnectionView>): void {
    view = { ...view, ...next };
    for (const listener of listeners) listener(view);
  }

  function dropConnection(): void {
    generation += 1;
    controller?.abort();
    controller = null;
    if (silenceTimer !== null) clearTimeout(silenceTimer);
    silenceTimer = null;
  }

  function cancelRetry(): void {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
  }

  function armSilence(mine: number): void {
    if (silenceTimer !== null) clearTimeout(silenceTimer);
    silenceTimer = setTimeout(() => {
      if (mine === generation) lost();
    }, silenceMs);
  }

  function lost(): void {
    if (!running || view.state === 'refused') return;
    dropConnection();
    cancelRetry();
    const attempts = view.state === 'offline' ? view.attempts + 1 : 0;
    const delay = reconnectDelay(attempts);
    set({ state: 'offline', lostAt: view.lostAt ?? now(), attempts, retryAt: now() + delay });
    retryTimer = setTimeout(connect, delay);
  }

  /** The offset from a frame that carries the service's time; the old one when it carries none. */
  function offsetFrom(data: string): number | null {
    const serverTime = serverTimeOf(data);
    return serverTime === null ? view.clockOffsetMs : serverTime - now();
  }

  function handle(message: SseMessage): void {
    if (message.id !== null) lastId = message.id;
    if (message.event === 'time') {
      const clockOffsetMs = offsetFrom(message.data);
      // The network's jitter is not news: a countdown must not step back and forth by a second.
      const known = view.clockOffsetMs;
      if (clockOffsetMs !== null && (known === null || Math.abs(clockOffsetMs - known) > 500)) {
        set({ clockOffsetMs });
      }
      return;
    }
    if (message.event === 'ready') {
      const recovered = view.state === 'offline';
      set({
        state: 'online',
        lostAt: null,
        attempts: 0,
        retryAt: null,
        recoveries: view.recoveries + (recovered ? 1 : 0),
        clockOffsetMs: offsetFrom(message.data),
      });
      options.onReady({ resync: isReady(message.data).resync, recovered });
      return;
    }
    if (message.event !== 'message') return;
    let event: BridgeEvent;
    try {
      event = JSON.parse(message.data) as BridgeEvent;
    } catch {
      return;
    }
    options.onEvent(event);
  }

  async function read(response: Response, mine: number): Promise<void> {
    if (mine !== generation) return;
    if (response.status === 401) {
      const code = await refusalCodeOfResponse(response);
      if (mine === generation) refused(code);
      return;
    }
    if (!response.ok || !response.body) {
      lost();
      return;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const parser = createSseParser((message) => {
      if (mine === generation) handle(message);
    });
    for (;;) {
      const { value, done } = await reader.read();
      if (mine !== generation) {
        reader.cancel().catch(() => undefined);
        return;
      }
      if (done) break;
      armSilence(mine);
      parser.push(decoder.decode(value, { stream: true }));
    }
    // The server ended the stream (it is stopping): main is gone until a try says otherwise.
    if (mine === generation) lost();
  }

  function connect(): void {
    retryTimer = null;
    dropConnection();
    const mine = generation;
    const own = new AbortController();
    controller = own;
    const request = options.request();
    armSilence(mine);
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
    const known = view.state === 'refused' ? view.refusedWith : null;
    set({ state: 'refused', retryAt: null, refusedWith: code ?? known });
  }

  return {
    start() {
      if (running) return;
      running = true;
      // A refused token stays refused: a screen mounting again must not start a retry loop.
      if (view.state !== 'refused') connect();
    },
    stop() {
      running = false;
      dropConnection();
      cancelRetry();
      if (view.state !== 'refused') set({ ...INITIAL, recoveries: view.recoveries });
    },
    restart() {
      if (!running) return;
      cancelRetry();
      if (view.state === 'refused') set({ state: 'connecting', refusedWith: null });
      connect();
    },
    callFailed() {
      if (running && (view.state === 'online' || view.state === 'connecting')) lost();
    },
    refused,
    view: () => view,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
