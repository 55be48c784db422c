import { describe, expect, it, vi } from 'vitest';
import type { SaleState } from '#shared/sales';
import { sale } from '#support/renderer/fixtures';
import { becamePaid, createPaidAnnouncer } from './paid-announcer';

const SOUNDS = { enabled: true, volume: 0.6 };

describe('becamePaid', () => {
  it.each([
    ['awaiting_payment', 'paid', true],
    ['confirming', 'paid', true],
    ['wrong_amount', 'paid', true],
    ['expired', 'paid_late', true],
    ['cancelled', 'paid_late', true],
    ['paid', 'paid', false],
    ['paid', 'paid_late', false],
    ['awaiting_payment', 'confirming', false],
    ['awaiting_payment', 'expired', false],
  ] as const satisfies readonly (readonly [SaleState, SaleState, boolean])[])(
    '%s -> %s: %s',
    (from, to, expected) => {
      expect(becamePaid(sale({ state: from }), sale({ state: to }))).toBe(expected);
    },
  );

  it('is never the first sight of a sale, nor another sale', () => {
    expect(becamePaid(null, sale({ state: 'paid' }))).toBe(false);
    expect(becamePaid(sale({ id: 1 }), sale({ id: 2, state: 'paid' }))).toBe(false);
  });
});

describe('createPaidAnnouncer', () => {
  function announcer() {
    const chime = vi.fn(() => true);
    return { chime, paid: createPaidAnnouncer(() => ({ speech: null, chime })) };
  }

  it('announces a sale once, whatever is replayed after', async () => {
    const { chime, paid } = announcer();
    const waiting = sale({ id: 7, state: 'awaiting_payment' });
    const done = sale({ id: 7, state: 'paid', updatedAt: waiting.updatedAt + 1 });
    await expect(paid.saleChanged(waiting, done, SOUNDS)).resolves.toBe('chimed');
    // A reconnect replays the old state and the paid one again.
    expect(paid.saleChanged(done, done, SOUNDS)).toBeNull();
    expect(paid.saleChanged(waiting, done, SOUNDS)).toBeNull();
    expect(chime).toHaveBeenCalledTimes(1);
  });

  it('announces each sale of its own', () => {
    const { chime, paid } = announcer();
    for (const id of [1, 2]) {
      void paid.saleChanged(sale({ id }), sale({ id, state: 'paid' }), SOUNDS);
    }
    expect(chime).toHaveBeenCalledTimes(2);
  });

  it('stays silent for changes that are not a payment', () => {
    const { chime, paid } = announcer();
    expect(paid.saleChanged(sale(), sale({ state: 'expired' }), SOUNDS)).toBeNull();
    expect(chime).not.toHaveBeenCalled();
  });
});
