import { describe, expect, it } from 'vitest';
import { createBlockList } from './block-list';

describe('the wrong-code block list', () => {
  it('never holds more than its cap: expired addresses go first, then the oldest', () => {
    const clock = { now: 1_000 };
    const list = createBlockList({ max: 100, now: () => clock.now });
    for (let i = 0; i < 250; i++)
      list.block(`10.0.${Math.floor(i / 250)}.${i}`, clock.now + 60_000);
    expect(list.size()).toBe(100);
    // The newest are kept, the oldest were dropped.
    expect(list.blockedUntil('10.0.0.249')).toBe(61_000);
    expect(list.blockedUntil('10.0.0.0')).toBeNull();
    // An expired one is not blocked, and makes room before a live one is dropped.
    list.block('192.168.1.7', clock.now + 10);
    clock.now += 20;
    expect(list.blockedUntil('192.168.1.7')).toBeNull();
    list.block('192.168.1.8', clock.now + 60_000);
    list.block('192.168.1.9', clock.now + 60_000);
    expect(list.size()).toBe(100);
    expect(list.blockedUntil('192.168.1.8')).not.toBeNull();
  });
});
