import { randomBytes } from 'node:crypto';
import type { BridgeEvent } from '#shared/bridge/contract';

/** How many events a reconnecting page can catch up on; older gaps make it re-read its state. */
export const EVENT_REPLAY_LIMIT = 1000;

/** An event with its place in this run: `id` is `<bootId>.<seq>`, what SSE sends as `id:`. */
export interface StampedEvent {
  readonly id: string;
  readonly seq: number;
  readonly event: BridgeEvent;
}

export interface EventBus {
  /** This run's id, fresh at every start: an id from another run cannot be replayed. */
  readonly bootId: string;
  emit(event: BridgeEvent): void;
  subscribe(listener: (event: BridgeEvent, stamped: StampedEvent) => void): () => void;
  /** The id of the newest event (seq 0 before any), for a page to start counting from. */
  lastId(): string;
  /**
   * The events after `lastId`, oldest first; null when they cannot all be given (an id from
   * another run, one older than the buffer, or not an id at all). Then the page re-reads.
   */
  since(lastId: string): readonly StampedEvent[] | null;
}

export interface EventBusOptions {
  readonly replayLimit?: number;
  readonly bootId?: string;
}

const EVENT_ID = /^([A-Za-z0-9_-]{1,64})\.(\d{1,15})$/;

/** `<bootId>.<seq>` read back, or null. */
export function parseEventId(
  text: string,
): { readonly bootId: string; readonly seq: number } | null {
  const match = EVENT_ID.exec(text.trim());
  if (!match?.[1] || !match[2]) return null;
  return { bootId: match[1], seq: Number(match[2]) };
}

/**
 * A synchronous fan-out; one listener that throws does not stop the others. Every event gets the
 * next number of this run and is kept in a bounded buffer, so that a page whose event stream
 * dropped can ask for what it missed.
 */
export function createEventBus(
  onListenerError: (error: unknown) => void,
  options: EventBusOptions = {},
): EventBus {
  const bootId = options.bootId ?? randomBytes(6).toString('base64url');
  const limit = Math.max(1, options.replayLimit ?? EVENT_REPLAY_LIMIT);
  const listeners = new Set<(event: BridgeEvent, stamped: StampedEvent) => void>();
  // A ring would save a copy on overflow; shift() on a 1000-item array is cheap enough here.
  const buffer: StampedEvent[] = [];
  let seq = 0;

  return {
    bootId,
    emit(event) {
      seq += 1;
      const stamped: StampedEvent = { id: `${bootId}.${seq}`, seq, event };
      buffer.push(stamped);
      if (buffer.length > limit) buffer.shift();
      for (const listener of listeners) {
        try {
          listener(event, stamped);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    lastId: () => `${bootId}.${seq}`,
    since(lastId) {
      const parsed = parseEventId(lastId);
      if (!parsed || parsed.bootId !== bootId || parsed.seq > seq) return null;
      if (parsed.seq === seq) return [];
      const oldest = buffer[0]?.seq ?? seq + 1;
      // The page's next event must still be in the buffer, or something was lost in between.
      if (parsed.seq + 1 < oldest) return null;
      return buffer.filter((stamped) => stamped.seq > parsed.seq);
    },
  };
}
