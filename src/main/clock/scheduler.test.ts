import { describe, expect, it, vi } from 'vitest';
import { AdjustableScheduler } from './scheduler';

describe('AdjustableScheduler', () => {
  it('jumps forward and fires what fell due, in order', () => {
    const scheduler = new AdjustableScheduler();
    const start = scheduler.now();
    const fired: number[] = [];
    scheduler.setTimer(60_000, () => fired.push(2));
    scheduler.setTimer(30_000, () => fired.push(1));
    scheduler.setTimer(15 * 60_000, () => fired.push(3));
    scheduler.advance(61_000);
    expect(fired).toEqual([1, 2]);
    expect(scheduler.now() - start).toBeGreaterThanOrEqual(61_000);
    expect(() => scheduler.advance(-1)).toThrow(RangeError);
  });

  it('still fires by real time without a jump', async () => {
    const scheduler = new AdjustableScheduler();
    const fn = vi.fn();
    scheduler.setTimer(20, fn);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(fn).toHaveBeenCalledOnce();
  });
});
