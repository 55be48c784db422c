import { STREAM_HEARTBEAT_MS } from '#shared/bridge/heartbeat';

/** One event stream a page opened against the fake shell. */
export interface FakeStream {
  readonly url: string;
  readonly headers: Headers;
  /** Sends text as the shell would write it (whole or partial frames). */
  push(text: string): void;
  /** The shell ends the stream (it is stopping). */
  end(): void;
  /** The connection breaks. */
  fail(): void;
  /**
   * The link goes silent without closing (a hub's cable pulled): its heartbeat stops, nothing
   * more arrives unless the test pushes it.
   */
  silence(): void;
  /** Whether the page aborted it. */
  aborted(): boolean;
}

export interface FakeCall {
  readonly name: string;
  readonly headers: Headers;
  readonly body: unknown;
}

export interface FakeCallAnswer {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * 'up': streams open and calls are answered. 'down': every request fails as a stopped shell's
 * would (connection refused). 'refusing': every request is answered 401 (the token was rotated).
 * 'revoked': every request is answered 401 COUNTER_REVOKED (the owner removed this counter).
 */
export type FakeShellMode = 'up' | 'down' | 'refusing' | 'revoked';

const REFUSALS: Readonly<Record<'refusing' | 'revoked', { code: string; message: string }>> = {
  refusing: { code: 'UNAUTHORISED', message: 'Missing or wrong token.' },
  revoked: {
    code: 'COUNTER_REVOKED',
    message: 'This counter was removed by the owner. Ask for a new pairing link.',
  },
};

export interface FakeShellHttp {
  readonly fetch: typeof fetch;
  readonly streams: readonly FakeStream[];
  readonly calls: readonly FakeCall[];
  /** Every request made, answered or not, with the (fake) time it was made. */
  readonly requests: readonly { readonly url: string; readonly at: number }[];
  setMode(mode: FakeShellMode): void;
  /** How calls are answered while up (default: `{ ok: true, value: {} }`). */
  answerCalls(answer: (call: FakeCall) => FakeCallAnswer): void;
  /** The newest stream, which a test usually talks to. */
  latest(): FakeStream;
}

/** A `ready` frame as the browser shell writes it. */
export function readyFrame(id: string, resync = false, replayed = 0): string {
  return `: connected\n\nevent: ready\nid: ${id}\ndata: ${JSON.stringify({ resync, replayed })}\n\n`;
}

/** An event frame as the browser shell writes it. */
export function eventFrame(id: string, event: unknown): string {
  return `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The browser shell's HTTP side, in memory: event streams the test writes into (each with the
 * shell's heartbeat until it closes or goes silent), calls it answers, and a switch to stop the
 * shell or refuse the token. For the renderer's bridge tests.
 */
export function createFakeShellHttp(): FakeShellHttp {
  const streams: FakeStream[] = [];
  const calls: FakeCall[] = [];
  const requests: { url: string; at: number }[] = [];
  let mode: FakeShellMode = 'up';
  let answer: (call: FakeCall) => FakeCallAnswer = () => ({ body: { ok: true, value: {} } });
  const encoder = new TextEncoder();

  function openStream(url: string, init: RequestInit | undefined): Response {
    let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
    let closed = false;
    let wasAborted = false;
    // The shell's heartbeat, as the real one writes it (a comment: it moves no clock).
    const heartbeat = setInterval(() => {
      if (!closed) controller?.enqueue(encoder.encode(': heartbeat\n\n'));
    }, STREAM_HEARTBEAT_MS);
    const body = new ReadableStream<Uint8Array>({
      start(own) {
        controller = own;
      },
    });
    const close = (error?: Error) => {
      clearInterval(heartbeat);
      if (closed) return;
      closed = true;
      if (error) controller?.error(error);
      else controller?.close();
    };
    init?.signal?.addEventListener('abort', () => {
      wasAborted = true;
      close(new DOMException('The operation was aborted.', 'AbortError'));
    });
    streams.push({
      url,
      headers: new Headers(init?.headers),
      push: (text) => {
        if (!closed) controller?.enqueue(encoder.encode(text));
      },
      end: () => close(),
      fail: () => close(new TypeError('network error')),
      silence: () => clearInterval(heartbeat),
      aborted: () => wasAborted,
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }

  const fakeFetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    requests.push({ url, at: Date.now() });
    if (mode === 'down') return Promise.reject(new TypeError('Failed to fetch'));
    if (mode === 'refusing' || mode === 'revoked') {
      return Promise.resolve(
        new Response(JSON.stringify({ ok: false, error: REFUSALS[mode] }), { status: 401 }),
      );
    }
    if (url.startsWith('/api/events')) return Promise.resolve(openStream(url, init));
    const name = /^\/api\/call\/([A-Za-z]+)$/.exec(url)?.[1] ?? '';
    const call: FakeCall = {
      name,
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const answered = answer(call);
    return Promise.resolve(
      new Response(JSON.stringify(answered.body), {
        status: answered.status ?? 200,
        headers: answered.headers ?? {},
      }),
    );
  };

  return {
    fetch: fakeFetch,
    streams,
    calls,
    requests,
    setMode: (next) => {
      mode = next;
    },
    answerCalls: (next) => {
      answer = next;
    },
    latest() {
      const stream = streams[streams.length - 1];
      if (!stream) throw new Error('no event stream was opened');
      return stream;
    },
  };
}
