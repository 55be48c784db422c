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
});
