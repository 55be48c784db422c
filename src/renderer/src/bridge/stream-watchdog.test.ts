import { describe, expect, it } from 'vitest';
import { STREAM_HEARTBEAT_MS, STREAM_SILENCE_MS } from '#shared/bridge/heartbeat';
import { createFakeTimers } from '#support/renderer/fake-timers';
import { createWatchdog, LATE_TIMER_MS } from './stream-watchdog';

function setUp(silenceMs = STREAM_SILENCE_MS) {
  const clock = createFakeTimers(1_000_000);
  const silentAt: number[] = [];
  const watchdog = createWatchdog({
    silenceMs,
    now: clock.now,
    timers: clock,
    onSilent: () => silentAt.push(clock.now()),
  });
  /** The service's heartbeat for `ms`, a frame every `everyMs`. */
  const beat = (ms: number, everyMs = STREAM_HEARTBEAT_MS) => {
    for (let passed = 0; passed + everyMs <= ms; passed += everyMs) {
      clock.advance(everyMs);
      watchdog.heard();
    }
  };
  return { clock, watchdog, silentAt, beat, start: clock.now() };
}

describe('the stream watchdog', () => {
  it('is quiet for an hour of heartbeats, on one timer per silence, not one per frame', () => {
    const { clock, watchdog, silentAt, beat } = setUp();
    watchdog.watch();
    beat(3_600_000);
    expect(silentAt).toEqual([]);
    // 14,400 frames; a timer about every 1.25 s (it looks again a silence after the last frame).
    expect(clock.setCount()).toBeLessThanOrEqual(
      3_600_000 / (STREAM_SILENCE_MS - STREAM_HEARTBEAT_MS) + 2,
    );
    expect(clock.pending()).toBe(1);
  });

  it('calls a link silent 1.5 s after its last frame, once', () => {
    const { clock, watchdog, silentAt, beat, start } = setUp();
    watchdog.watch();
    beat(10_000);
    const lastFrame = clock.now();
    expect(lastFrame).toBe(start + 10_000);
    clock.advance(STREAM_SILENCE_MS - 1);
    expect(silentAt).toEqual([]);
    clock.advance(1);
    expect(silentAt).toEqual([lastFrame + STREAM_SILENCE_MS]);
    clock.advance(60_000);
    expect(silentAt).toHaveLength(1);
    expect(clock.pending()).toBe(0);
  });

  it('keeps a busy but alive service: heartbeats up to 1.25 s apart never trip it', () => {
    const { watchdog, silentAt, beat } = setUp();
    watchdog.watch();
    for (let round = 0; round < 20; round++) {
      beat(1_000);
      // The service's event loop blocked for a second: one heartbeat 1.25 s after the last.
      beat(STREAM_HEARTBEAT_MS + 1_000, STREAM_HEARTBEAT_MS + 1_000);
    }
    expect(silentAt).toEqual([]);
  });

  it('but a gap of the whole silence trips it', () => {
    const { clock, watchdog, silentAt, beat } = setUp();
    watchdog.watch();
    beat(1_000);
    clock.advance(STREAM_SILENCE_MS);
    watchdog.heard();
    expect(silentAt).toHaveLength(1);
  });

  it('a timer that fires late (this page was busy) lets queued frames in before it judges', () => {
    const { clock, watchdog, silentAt, beat } = setUp();
    watchdog.watch();
    beat(1_000);
    // A long render on a slow phone: 3 s pass, no timer runs, frames wait in the queue.
    clock.stall(3_000);
    clock.advance(0);
    expect(silentAt).toEqual([]);
    // The queued frame runs right after the late timer.
    watchdog.heard();
    beat(5_000);
    expect(silentAt).toEqual([]);
  });

  it('a late timer with nothing queued calls it silent after one more short look', () => {
    const { clock, watchdog, silentAt, beat } = setUp();
    watchdog.watch();
    beat(1_000);
    clock.stall(3_000);
    const woke = clock.now();
    clock.advance(LATE_TIMER_MS - 1);
    expect(silentAt).toEqual([]);
    clock.advance(1);
    expect(silentAt).toEqual([woke + LATE_TIMER_MS]);
  });

  it('gives a first try its own wait for the first byte, then the usual silence', () => {
    const { clock, watchdog, silentAt, start } = setUp();
    watchdog.watch(5_000);
    clock.advance(4_999);
    expect(silentAt).toEqual([]);
    clock.advance(1);
    expect(silentAt).toEqual([start + 5_000]);

    watchdog.watch(5_000);
    clock.advance(1_000);
    watchdog.heard();
    clock.advance(STREAM_SILENCE_MS);
    expect(silentAt).toEqual([start + 5_000, start + 5_000 + 1_000 + STREAM_SILENCE_MS]);
  });

  it('says nothing once stopped', () => {
    const { clock, watchdog, silentAt } = setUp();
    watchdog.watch();
    clock.advance(1_000);
    watchdog.stop();
    clock.advance(60_000);
    expect(silentAt).toEqual([]);
    expect(clock.pending()).toBe(0);
  });
});

describe('the heartbeat and the silence', () => {
  it('leave a busy service a second of slack and a page half a second to show the loss in 2 s', () => {
    expect(STREAM_SILENCE_MS - STREAM_HEARTBEAT_MS).toBeGreaterThanOrEqual(1_000);
    expect(STREAM_SILENCE_MS).toBeLessThanOrEqual(1_500);
  });
});
