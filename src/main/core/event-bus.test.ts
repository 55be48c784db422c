import { describe, expect, it, vi } from 'vitest';
import type { BridgeEvent } from '#shared/bridge/contract';
import { createEventBus, parseEventId } from './event-bus';

function navigate(n: number): BridgeEvent {
  return { type: 'navigate', payload: { route: n % 2 === 0 ? 'sale' : 'activity' } };
}

describe('event bus', () => {
  it('numbers every event of a run, from 1, under the run’s boot id', () => {
    const bus = createEventBus(vi.fn(), { bootId: 'boot1' });
    const seen: string[] = [];
    bus.subscribe((_event, stamped) => seen.push(stamped.id));
    expect(bus.lastId()).toBe('boot1.0');
    bus.emit(navigate(1));
    bus.emit(navigate(2));
    expect(seen).toEqual(['boot1.1', 'boot1.2']);
    expect(bus.lastId()).toBe('boot1.2');
  });

  it('gives each run its own boot id, so that a restart is noticed', () => {
    expect(createEventBus(vi.fn()).bootId).not.toBe(createEventBus(vi.fn()).bootId);
    expect(createEventBus(vi.fn()).bootId).toMatch(/^[A-Za-z0-9_-]{8}$/);
  });

  it('keeps delivering when one listener throws', () => {
    const onError = vi.fn();
    const bus = createEventBus(onError);
    const after = vi.fn();
    bus.subscribe(() => {
      throw new Error('listener broke');
    });
    bus.subscribe(after);
    bus.emit(navigate(1));
    expect(after).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledOnce();
  });

  it('replays what came after a given id, oldest first', () => {
    const bus = createEventBus(vi.fn(), { bootId: 'b' });
    for (let n = 1; n <= 5; n += 1) bus.emit(navigate(n));
    expect(bus.since('b.2')?.map((stamped) => stamped.id)).toEqual(['b.3', 'b.4', 'b.5']);
    expect(bus.since('b.2')?.[0]?.event).toEqual(navigate(3));
    expect(bus.since('b.5')).toEqual([]);
    expect(bus.since('b.0')?.length).toBe(5);
  });

  it('says it cannot cover a gap: another run, too old, from the future, or not an id', () => {
    const bus = createEventBus(vi.fn(), { bootId: 'b', replayLimit: 3 });
    for (let n = 1; n <= 5; n += 1) bus.emit(navigate(n));
    // The buffer holds 3, 4, 5: after 2 everything is there, after 1 event 2 is lost.
    expect(bus.since('b.2')?.map((stamped) => stamped.seq)).toEqual([3, 4, 5]);
    expect(bus.since('b.1')).toBeNull();
    expect(bus.since('other.4')).toBeNull();
    expect(bus.since('b.9')).toBeNull();
    expect(bus.since('')).toBeNull();
    expect(bus.since('b.x')).toBeNull();
  });

  it('stays bounded however many events pass', () => {
    const bus = createEventBus(vi.fn(), { bootId: 'b', replayLimit: 10 });
    for (let n = 1; n <= 10_000; n += 1) bus.emit(navigate(n));
    expect(bus.since('b.9990')?.length).toBe(10);
    expect(bus.since('b.9989')).toBeNull();
  });

  it('reads an event id back', () => {
    expect(parseEventId('abc_-1.42')).toEqual({ bootId: 'abc_-1', seq: 42 });
    expect(parseEventId(' b.7 ')).toEqual({ bootId: 'b', seq: 7 });
    expect(parseEventId('b.')).toBeNull();
    expect(parseEventId('b c.1')).toBeNull();
  });
});
