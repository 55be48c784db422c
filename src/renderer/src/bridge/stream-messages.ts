/**
 * What the event stream's messages mean for the page, as pure functions: the till service's
 * time in a frame, a `ready` frame's resync flag, and the change each message makes to the
 * connection's view; and the reading of a stream's body into messages.
 */
import type { BridgeEvent } from '#shared/bridge/contract';
import type { ConnectionView } from './connection-view';
import { createSseParser, type SseMessage } from './sse-parser';

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

function isResync(data: string): boolean {
  try {
    return (JSON.parse(data) as { resync?: unknown }).resync === true;
  } catch {
    // An unreadable ready frame: re-reading is the safe side.
    return true;
  }
}

/** What one message does: a change to the view, main answered (`ready`), or an event. */
export interface MessageEffect {
  readonly change: Partial<ConnectionView> | null;
  readonly ready: { readonly resync: boolean; readonly recovered: boolean } | null;
  readonly event: BridgeEvent | null;
}

const NOTHING: MessageEffect = { change: null, ready: null, event: null };

/** How far a new clock offset must move to be news (the network's jitter is not). */
const OFFSET_NEWS_MS = 500;

export function effectOf(message: SseMessage, view: ConnectionView, now: number): MessageEffect {
  const serverTime = message.event === 'message' ? null : serverTimeOf(message.data);
  const offset = serverTime === null ? view.clockOffsetMs : serverTime - now;
  if (message.event === 'time') {
    // A countdown must not step back and forth by a second with the network's delay.
    const known = view.clockOffsetMs;
    const news = offset !== null && (known === null || Math.abs(offset - known) > OFFSET_NEWS_MS);
    return news ? { ...NOTHING, change: { clockOffsetMs: offset } } : NOTHING;
  }
  if (message.event === 'ready') {
    const recovered = view.state === 'offline';
    return {
      change: {
        state: 'online',
        lostAt: null,
        attempts: 0,
        retryAt: null,
        recoveries: view.recoveries + (recovered ? 1 : 0),
        clockOffsetMs: offset,
      },
      ready: { resync: isResync(message.data), recovered },
      event: null,
    };
  }
  if (message.event !== 'message') return NOTHING;
  try {
    return { ...NOTHING, event: JSON.parse(message.data) as BridgeEvent };
  } catch {
    return NOTHING;
  }
}

export interface FrameReader {
  /** Whether the connection is still the one wanted (else reading stops and the body is cancelled). */
  readonly current: () => boolean;
  /** Bytes arrived (any: a heartbeat, a partial frame). */
  readonly onBytes: () => void;
  readonly onMessage: (message: SseMessage) => void;
}

/** Reads a stream's body into messages: 'ended' when the server ended it, 'dropped' when not wanted. */
export async function readMessages(
  body: ReadableStream<Uint8Array>,
  reader: FrameReader,
): Promise<'ended' | 'dropped'> {
  const chunks = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser((message) => {
    if (reader.current()) reader.onMessage(message);
  });
  for (;;) {
    const { value, done } = await chunks.read();
    if (!reader.current()) {
      chunks.cancel().catch(() => undefined);
      return 'dropped';
    }
    if (done) return 'ended';
    reader.onBytes();
    parser.push(decoder.decode(value, { stream: true }));
  }
}
