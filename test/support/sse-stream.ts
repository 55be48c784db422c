/** One server-sent event as it came over the wire (comments dropped). */
export interface SseFrame {
  readonly id: string | null;
  readonly event: string;
  readonly data: string;
}

export interface SseStream {
  readonly status: number;
  /** The next frame; rejects when the stream ends first or nothing comes within `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseFrame>;
  /** Resolves once the server ended the stream (frames not yet read are dropped). */
  ended(timeoutMs?: number): Promise<void>;
  close(): void;
}

function parseFrame(block: string): SseFrame | null {
  let id: string | null = null;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 && id === null ? null : { id, event, data: data.join('\n') };
}

/** Text chunks of an event stream in, frames out one by one: what every kind of stream shares. */
export interface SseFrameBuffer {
  push(chunk: string): void;
  /** The stream is over (ended, broken or closed). */
  finish(): void;
  stream(status: number, close: () => void): SseStream;
}

export function sseFrameBuffer(): SseFrameBuffer {
  const frames: SseFrame[] = [];
  let done = false;
  let text = '';
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };

  async function waitFor<T>(take: () => T | undefined, what: string, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = take();
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  return {
    push(chunk) {
      text += chunk;
      let end = text.indexOf('\n\n');
      while (end >= 0) {
        const frame = parseFrame(text.slice(0, end));
        text = text.slice(end + 2);
        // The till service's time rides along with events and pings; tests read it from `ready`.
        if (frame && frame.event !== 'time') frames.push(frame);
        end = text.indexOf('\n\n');
      }
      notify();
    },
    finish() {
      done = true;
      notify();
    },
    stream: (status, close) => ({
      status,
      next: (timeoutMs = 5_000) =>
        waitFor(
          () => {
            const frame = frames.shift();
            if (frame) return frame;
            if (done) throw new Error('the event stream ended');
            return undefined;
          },
          'event frame',
          timeoutMs,
        ),
      ended: (timeoutMs = 5_000) =>
        waitFor(() => (done ? true : undefined), 'end of the stream', timeoutMs).then(() => {}),
      close,
    }),
  };
}

/**
 * An event stream opened over real HTTP (fetch), read frame by frame: what a test needs to
 * check ids, replay and refusals without a browser.
 */
export async function openSseStream(
  url: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const buffer = sseFrameBuffer();
  if (response.ok && response.body) {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer.push(decoder.decode(value, { stream: true }));
        }
      } catch {
        // Aborted by close(), or the connection broke: either way the stream is over.
      }
      buffer.finish();
    })();
  } else {
    buffer.finish();
  }
  return buffer.stream(response.status, () => controller.abort());
}
