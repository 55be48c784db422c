/**
 * The open event streams (server-sent events) of one listener. Each stream says which events it
 * carries; every core event is checked against each stream when it is emitted, and a stream that
 * reconnects gets what it missed after its Last-Event-ID first.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BridgeEvent } from '#shared/bridge/contract';
import { STREAM_HEARTBEAT_MS } from '#shared/bridge/heartbeat';
import type { EventBus, StampedEvent } from '#main/core/event-bus';

export interface StreamSpec {
  /** Who holds the stream ("browser", "display", "counter:3"): streams are ended by tag. */
  readonly tag: string;
  /** Whether this stream carries an event (its caller's role decides, at the moment it is sent). */
  wants(event: BridgeEvent): boolean;
  /** Sent first, without ids: the current state a display needs before any change. */
  greeting?(): Promise<readonly BridgeEvent[]>;
}

export interface EventStreams {
  open(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    spec: StreamSpec,
  ): Promise<void>;
  /** Sends an event (without an id) to the streams whose tag matches; not kept for replay. */
  send(event: BridgeEvent, tagMatches: (tag: string) => boolean): void;
  /** Ends the streams whose tag matches (a rotated token, a revoked counter). */
  end(tagMatches: (tag: string) => boolean): void;
  /** Tags of the streams open now. */
  tags(): readonly string[];
  close(): void;
}

function frameOf(stamped: StampedEvent): string {
  return `id: ${stamped.id}\ndata: ${JSON.stringify(stamped.event)}\n\n`;
}

function unstampedFrame(event: BridgeEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

/**
 * The till service's time, for pages to count down against (a tablet's own clock may be minutes
 * off). A named event without an id: it is never replayed, and a page that does not know it
 * ignores it.
 */
export function timeFrame(serverTime: number): string {
  return `event: time\ndata: ${JSON.stringify({ serverTime })}\n\n`;
}

/**
 * `now`: the till service's clock (the core's scheduler), sent on connect, with events and
 * heartbeats. `heartbeatMs`: how often every stream hears the time (STREAM_HEARTBEAT_MS: a page
 * calls a link lost after STREAM_SILENCE_MS without a byte).
 */
export function createEventStreams(
  events: EventBus,
  now: () => number = Date.now,
  heartbeatMs: number = STREAM_HEARTBEAT_MS,
): EventStreams {
  const clients = new Map<ServerResponse, StreamSpec>();

  const unsubscribe = events.subscribe((event, stamped) => {
    const frame = frameOf(stamped);
    let time: string | null = null;
    for (const [client, spec] of clients) {
      if (!spec.wants(event)) continue;
      time ??= timeFrame(now());
      client.write(frame + time);
    }
  });
  // The heartbeat is the time: silence means a dead link, and a page's clock offset stays fresh.
  const heartbeat = setInterval(() => {
    if (clients.size === 0) return;
    const time = timeFrame(now());
    for (const client of clients.keys()) client.write(time);
  }, heartbeatMs);
  heartbeat.unref();

  function end(tagMatches: (tag: string) => boolean): void {
    for (const [client, spec] of clients) {
      if (!tagMatches(spec.tag)) continue;
      clients.delete(client);
      client.end();
    }
  }

  return {
    /**
     * A new stream first gets its greeting, then what it missed after the Last-Event-ID it sent
     * (as far as the buffer reaches), then a `ready` frame: `resync: true` tells the page to
     * re-read its state (the shell restarted, or the gap is older than the buffer).
     */
    async open(request, response, url, spec) {
      const header = request.headers['last-event-id'];
      const sent =
        (typeof header === 'string' ? header : null) ?? url.searchParams.get('lastEventId');
      // Events emitted while the greeting is read are replayed after it, so none falls between.
      const before = events.lastId();
      const greeting = spec.greeting ? await spec.greeting() : [];
      const lastEventId = sent ?? (spec.greeting ? before : null);
      // The page went away while the greeting was read.
      if (response.destroyed) return;
      const missed = lastEventId ? events.since(lastEventId) : [];
      const replay = (missed ?? []).filter((stamped) => spec.wants(stamped.event));
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      const ready = { resync: missed === null, replayed: replay.length, serverTime: now() };
      // One write, so that the greeting arrives as one chunk.
      response.write(
        `: connected\n\n${greeting.map(unstampedFrame).join('')}${replay.map(frameOf).join('')}event: ready\nid: ${events.lastId()}\ndata: ${JSON.stringify(ready)}\n\n`,
      );
      clients.set(response, spec);
      request.on('close', () => clients.delete(response));
    },
    send(event, tagMatches) {
      const frame = unstampedFrame(event);
      for (const [client, spec] of clients) {
        if (tagMatches(spec.tag)) client.write(frame);
      }
    },
    end,
    tags: () => [...clients.values()].map((spec) => spec.tag),
    close() {
      clearInterval(heartbeat);
      unsubscribe();
      end(() => true);
    },
  };
}
