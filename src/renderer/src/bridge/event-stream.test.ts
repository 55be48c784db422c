import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BridgeEvent } from '#shared/bridge/contract';
import { createFakeShellHttp, eventFrame, readyFrame } from '#support/renderer/fake-shell-http';
import { RECONNECT_DELAYS_MS, reconnectDelay } from './backoff';
import { STREAM_HEARTBEAT_MS } from '#shared/bridge/heartbeat';
import {
  createEventStream,
  STREAM_CONNECT_MS,
  STREAM_SILENCE_MS,
  type ConnectionView,
  type EventStreamOptions,
} from './event-stream';

const NAVIGATE: BridgeEvent = { type: 'navigate', payload: { route: 'activity' } };

/** Lets fetch answers and stream reads (promises) run, and moves the fake clock by `ms`. */
const advance = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

function setUp(options: Partial<EventStreamOptions> = {}) {
  const shell = createFakeShellHttp();
  const events: BridgeEvent[] = [];
  const readies: { resync: boolean; recovered: boolean }[] = [];
  const views: ConnectionView[] = [];
  const stream = createEventStream({
    fetchImpl: shell.fetch,
    request: () => ({ url: '/api/events?session=s1', headers: { authorization: 'Bearer tok' } }),
    onEvent: (event) => events.push(event),
    onReady: (ready) => readies.push(ready),
    now: () => Date.now(),
    ...options,
  });
  stream.subscribe((view) => views.push(view));
  return { shell, stream, events, readies, views };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('reconnect backoff', () => {
  it('waits 0.5, 1, 2, 4, then 8 s between tries', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(reconnectDelay)).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000, 8000,
    ]);
    expect(RECONNECT_DELAYS_MS).toEqual([500, 1000, 2000, 4000, 8000]);
  });
});

describe('event stream', () => {
  it('is online once main says ready, and hands on events', async () => {
    const { shell, stream, events, readies } = setUp();
    stream.start();
    await advance();
    expect(stream.view().state).toBe('connecting');
    const opened = shell.latest();
    expect(opened.url).toBe('/api/events?session=s1');
    expect(opened.headers.get('authorization')).toBe('Bearer tok');
    expect(opened.headers.get('last-event-id')).toBeNull();
    opened.push(readyFrame('b.0'));
    await advance();
    expect(stream.view().state).toBe('online');
    expect(readies).toEqual([{ resync: false, recovered: false }]);
    opened.push(eventFrame('b.1', NAVIGATE));
    await advance();
    expect(events).toEqual([NAVIGATE]);
  });

  it('says main is lost at once when the stream ends, then retries with backoff', async () => {
    const { shell, stream } = setUp();
    stream.start();
    await advance();
    shell.latest().push(readyFrame('b.0'));
    await advance();
    shell.setMode('down');
    shell.latest().end();
    await advance();
    // No wait at all before the page knows.
    expect(stream.view()).toMatchObject({ state: 'offline', lostAt: 1_000_000, attempts: 0 });
    const lostAt = Date.now();
    const before = shell.requests.length;
    await advance(40_000);
    const tries = shell.requests.slice(before).map((request) => request.at - lostAt);
    // 0.5 s, then 1, 2, 4 and 8 s apart, then every 8 s.
    expect(tries).toEqual([500, 1500, 3500, 7500, 15_500, 23_500, 31_500, 39_500]);
    expect(stream.view()).toMatchObject({ state: 'offline', lostAt: 1_000_000, attempts: 8 });
    expect(stream.view().retryAt).toBe(lostAt + 47_500);
  });

  it('comes back with Last-Event-ID, gets the missed events, and says it recovered', async () => {
    const { shell, stream, events, readies, views } = setUp();
    stream.start();
    await advance();
    shell.latest().push(readyFrame('b.4'));
    shell.latest().push(eventFrame('b.5', NAVIGATE));
    await advance();
    shell.setMode('down');
    shell.latest().fail();
    await advance();
    await advance(500); // first try: still down
    shell.setMode('up');
    await advance(1000); // second try: up
    const back = shell.latest();
    expect(back.headers.get('last-event-id')).toBe('b.5');
    back.push(eventFrame('b.6', NAVIGATE) + readyFrame('b.6', false, 1));
    await advance();
    expect(events).toHaveLength(2);
    expect(stream.view()).toMatchObject({ state: 'online', recoveries: 1, lostAt: null });
    expect(readies.at(-1)).toEqual({ resync: false, recovered: true });
    expect(views.map((view) => view.state)).toEqual(['online', 'offline', 'offline', 'online']);
  });

  it('asks the page to re-read when main cannot replay (it restarted)', async () => {
    const { shell, stream, readies } = setUp();
    stream.start();
    await advance();
    shell.latest().push(readyFrame('old.7'));
    await advance();
    shell.latest().end();
    await advance(500);
    expect(shell.latest().headers.get('last-event-id')).toBe('old.7');
    shell.latest().push(readyFrame('new.0', true));
    await advance();
    expect(readies.at(-1)).toEqual({ resync: true, recovered: true });
    // The next reconnect counts from the new run.
    shell.latest().end();
    await advance(500);
    expect(shell.latest().headers.get('last-event-id')).toBe('new.0');
  });

  it('stops trying when main refuses the token (401)', async () => {
    const { shell, stream } = setUp();
    stream.start();
    await advance();
    shell.latest().push(readyFrame('b.0'));
    await advance();
    shell.setMode('refusing');
    shell.latest().end();
    await advance(500);
    expect(stream.view().state).toBe('refused');
    const count = shell.streams.length;
    await advance(60_000);
    expect(shell.streams.length).toBe(count);
    expect(stream.view().retryAt).toBeNull();
  });

  it('keeps the code main refused with, and stays refused through a stop and a start', async () => {
    const { shell, stream } = setUp();
    shell.setMode('revoked');
    stream.start();
    await advance();
    expect(stream.view()).toMatchObject({ state: 'refused', refusedWith: 'COUNTER_REVOKED' });
    // A refusal without a readable code keeps the one known.
    stream.refused(null);
    expect(stream.view().refusedWith).toBe('COUNTER_REVOKED');
    const count = shell.requests.length;
    stream.stop();
    stream.start();
    await advance(60_000);
    expect(shell.requests.length).toBe(count);
    expect(stream.view().state).toBe('refused');
  });

  it('treats a failed call as a lost link while it thought it was online', async () => {
    const { shell, stream } = setUp();
    stream.start();
    await advance();
    const first = shell.latest();
    first.push(readyFrame('b.0'));
    await advance();
    stream.callFailed();
    expect(stream.view().state).toBe('offline');
    expect(first.aborted()).toBe(true);
    await advance(500);
    expect(shell.streams.length).toBe(2);
    // Another failed call while already trying does not reset the backoff.
    stream.callFailed();
    expect(stream.view().attempts).toBe(0);
  });

  it('stays online on the heartbeat; a link gone silent is lost within 1.5 s, then it recovers', async () => {
    const { shell, stream, readies } = setUp();
    stream.start();
    await advance();
    shell.latest().push(readyFrame('b.0'));
    await advance(60_000);
    expect(stream.view().state).toBe('online');
    // The hub's cable is pulled: nothing closes, nothing more arrives.
    const silent = shell.latest();
    silent.silence();
    await advance(STREAM_SILENCE_MS - STREAM_HEARTBEAT_MS);
    expect(stream.view().state).toBe('online');
    await advance(STREAM_HEARTBEAT_MS);
    expect(stream.view()).toMatchObject({ state: 'offline', attempts: 0 });
    expect(silent.aborted()).toBe(true);
    // The next try reaches the hub again.
    await advance(RECONNECT_DELAYS_MS[0]);
    expect(shell.streams).toHaveLength(2);
    shell.latest().push(readyFrame('b.0'));
    await advance();
    expect(stream.view()).toMatchObject({ state: 'online', recoveries: 1 });
    expect(readies.at(-1)).toEqual({ resync: false, recovered: true });
  });

  it('gives a try that is not yet live 5 s for its first byte, then tries again', async () => {
    const { shell, stream } = setUp();
    stream.start();
    await advance();
    shell.latest().silence();
    await advance(STREAM_CONNECT_MS - 1);
    expect(stream.view().state).toBe('connecting');
    await advance(1);
    expect(stream.view().state).toBe('offline');
    // Silent tries while offline each wait as long, with the backoff between them.
    await advance(RECONNECT_DELAYS_MS[0]);
    shell.latest().silence();
    await advance(STREAM_CONNECT_MS);
    expect(stream.view()).toMatchObject({ state: 'offline', attempts: 1 });
    expect(shell.streams).toHaveLength(2);
  });

  it('opens again on restart (a new session), keeping its place', async () => {
    const { shell, stream } = setUp();
    stream.start();
    await advance();
    const first = shell.latest();
    first.push(readyFrame('b.2'));
    await advance();
    stream.restart();
    await advance();
    expect(first.aborted()).toBe(true);
    expect(shell.latest().headers.get('last-event-id')).toBe('b.2');
    expect(stream.view().state).toBe('online');
  });

  it('stops cleanly: no tries after stop', async () => {
    const { shell, stream } = setUp();
    stream.start();
    await advance();
    shell.setMode('down');
    shell.latest().end();
    await advance();
    stream.stop();
    const count = shell.streams.length;
    await advance(30_000);
    expect(shell.streams.length).toBe(count);
    expect(stream.view().state).toBe('connecting');
  });
});

describe("the till service's clock", () => {
  it('measures the offset on connect and keeps it fresh with time frames, not with jitter', async () => {
    const { shell, stream } = setUp();
    stream.start();
    await advance();
    expect(stream.view().clockOffsetMs).toBeNull();
    // The service is 10 minutes ahead of this device.
    shell
      .latest()
      .push(
        `event: ready\nid: b.0\ndata: ${JSON.stringify({ resync: false, serverTime: Date.now() + 600_000 })}\n\n`,
      );
    await advance();
    expect(stream.view().clockOffsetMs).toBe(600_000);
    // 200 ms of network jitter is not a new offset; the service's clock moved 5 minutes is.
    shell.latest().push(`event: time\ndata: {"serverTime":${Date.now() + 600_200}}\n\n`);
    await advance();
    expect(stream.view().clockOffsetMs).toBe(600_000);
    shell.latest().push(`event: time\ndata: {"serverTime":${Date.now() + 900_000}}\n\n`);
    await advance();
    expect(stream.view().clockOffsetMs).toBe(900_000);
    // An unreadable time frame keeps what was known.
    shell.latest().push('event: time\ndata: nonsense\n\n');
    await advance();
    expect(stream.view().clockOffsetMs).toBe(900_000);
  });
});
