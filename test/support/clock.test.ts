import { describe, expect, it } from 'vitest';
import { ManualScheduler } from './clock';

describe('ManualScheduler', () => {
  it('runs due timers in time order as the clock advances, and not the others', async () => {
    const scheduler = new ManualScheduler(0);
    const order: string[] = [];
    scheduler.setTimer(300, () => order.push('c'));
    scheduler.setTimer(100, () => order.push('a'));
    const cancel = scheduler.setTimer(200, () => order.push('cancelled'));
    scheduler.setTimer(200, () => order.push('b'));
    cancel();
    await scheduler.advance(250);
    expect(order).toEqual(['a', 'b']);
    expect(scheduler.now()).toBe(250);
    expect(scheduler.pending()).toBe(1);
  });

  it('lets work already in flight finish at the time it started, before any timer moves the clock', async () => {
    const scheduler = new ManualScheduler(0);
    scheduler.setTimer(60_000, () => undefined);
    // Work a start-up began (a status check over real HTTP): it lands after a macrotask.
    let landedAt: number | null = null;
    const inFlight = new Promise<void>((done) =>
      setImmediate(() => {
        landedAt = scheduler.now();
        done();
      }),
    );
    const settle = () => new Promise<void>((done) => setImmediate(done)).then(() => undefined);
    await scheduler.advance(120_000, settle);
    await inFlight;
    expect(landedAt).toBe(0);
    expect(scheduler.now()).toBe(120_000);
  });
});
