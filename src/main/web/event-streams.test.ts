import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STREAM_HEARTBEAT_MS, STREAM_SILENCE_MS } from '#shared/bridge/heartbeat';
import { createEventBus } from '#main/core/event-bus';
import { createEventStreams } from './event-streams';

/** A page's side of one stream: what the server wrote to it (a stand-in for the socket). */
function fakePage() {
  const request = Object.assign(new EventEmitter(), { headers: {} }) as unknown as IncomingMessage;
  const written: string[] = [];
  const response = {
    destroyed: false,
    writeHead: () => response,
    write: (chunk: string) => written.push(chunk) > 0,
    end: () => undefined,
  } as unknown as ServerResponse;
  const timeFrames = () => written.filter((chunk) => chunk.startsWith('event: time\n')).length;
  return { request, response, written, timeFrames };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the event streams’ heartbeat', () => {
  it('writes the service’s time to every open stream every 250 ms, well inside a page’s silence', async () => {
    const streams = createEventStreams(
      createEventBus(() => undefined),
      () => Date.now() + 42,
    );
    const pages = [fakePage(), fakePage()];
    for (const page of pages) {
      await streams.open(page.request, page.response, new URL('http://x/api/events'), {
        tag: 'counter:1',
        wants: () => true,
      });
    }
    vi.advanceTimersByTime(10_000);
    for (const page of pages) {
      expect(page.timeFrames()).toBe(10_000 / STREAM_HEARTBEAT_MS);
      expect(page.written.at(-1)).toBe(`event: time\ndata: {"serverTime":${Date.now() + 42}}\n\n`);
    }
    expect(STREAM_HEARTBEAT_MS * 4).toBeLessThanOrEqual(STREAM_SILENCE_MS);
    // A page that went away hears nothing more.
    pages[0]?.request.emit('close');
    vi.advanceTimersByTime(1_000);
    expect(pages.map((page) => page.timeFrames())).toEqual([40, 44]);
    streams.close();
    vi.advanceTimersByTime(1_000);
    expect(pages[1]?.timeFrames()).toBe(44);
  });
});
