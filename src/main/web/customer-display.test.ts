import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DisplayStateView } from '#shared/hub';
import type { SaleView } from '#shared/sales';
import type { Core } from '#main/core/create-core';
import {
  currentDisplaySale,
  displayTokenFor,
  displayWants,
  watchDisplayState,
} from './customer-display';

function sale(overrides: Partial<SaleView>): SaleView {
  return {
    id: 1,
    state: 'awaiting_payment',
    reason: null,
    amountKobo: 150_000,
    amountDueKobo: 150_000,
    note: null,
    cashier: null,
    tillId: 'till-hub1',
    reference: 'TT-1',
    accountNumber: '0123456789',
    accountName: 'Shop Checkout',
    bank: 'Wema Bank',
    expiresAt: 2_000,
    paidAt: null,
    paidSessionId: null,
    createdAt: 1_000,
    updatedAt: 1_000,
    callbackMode: 'live',
    paidAfter: null,
    lateResolution: null,
    canRetry: false,
    offlineCause: false,
    outagePolicy: null,
    outageAction: null,
    refundsOwed: [],
    ...overrides,
  };
}

describe("the customer display's token", () => {
  it('is HMAC-SHA256 of "customer-display" keyed by the shell token, 22 base64url characters', () => {
    const shellToken = 'AAAAAAAAAAAAAAAAAAAAAA';
    const expected = createHmac('sha256', shellToken)
      .update('customer-display')
      .digest('base64url')
      .slice(0, 22);
    expect(displayTokenFor(shellToken)).toBe(expected);
    expect(displayTokenFor(shellToken)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('changes with the shell token and never equals it', () => {
    const a = displayTokenFor('first-token-0123456789');
    const b = displayTokenFor('other-token-0123456789');
    expect(a).not.toBe(b);
    expect(a).not.toBe('first-token-0123456789');
  });
});

describe('what the customer display shows and hears', () => {
  it("shows the newest open sale of the hub's own till", () => {
    const sales = [
      sale({ id: 1, createdAt: 1_000 }),
      sale({ id: 2, createdAt: 3_000, tillId: 'till-cnt1' }),
      sale({ id: 3, createdAt: 2_000, state: 'confirming' }),
      sale({ id: 4, createdAt: 4_000, state: 'paid' }),
      sale({ id: 5, createdAt: 5_000, state: 'cancelled' }),
    ];
    expect(currentDisplaySale(sales, 'till-hub1')?.id).toBe(3);
    expect(currentDisplaySale(sales, 'till-cnt1')?.id).toBe(2);
    expect(currentDisplaySale([sale({ state: 'expired' })], 'till-hub1')).toBeNull();
  });

  it('counts a sale from before till ids as this till’s', () => {
    expect(currentDisplaySale([sale({ tillId: null })], 'till-hub1')?.id).toBe(1);
  });

  it("hears only sale changes of the hub's own till", () => {
    expect(displayWants({ type: 'sale-changed', payload: sale({}) }, 'till-hub1')).toBe(true);
    expect(
      displayWants({ type: 'sale-changed', payload: sale({ tillId: 'till-cnt1' }) }, 'till-hub1'),
    ).toBe(false);
    expect(displayWants({ type: 'navigate', payload: { route: 'settings' } }, 'till-hub1')).toBe(
      false,
    );
    expect(
      displayWants(
        {
          type: 'alert',
          payload: {
            id: 1,
            createdAt: 0,
            level: 'warning',
            kind: 'paid_late',
            saleId: 1,
            message: 'Late payment',
            sessionId: null,
            acknowledgedAt: null,
            closedBy: null,
            action: null,
          },
        },
        'till-hub1',
      ),
    ).toBe(false);
  });
});

describe('watchDisplayState (both shells tell an open display what changed)', () => {
  /** A core with just what the watch reads: settings to change, and no sales. */
  function coreWithShop(shop: { name: string; tillId: string }) {
    let settings = { shop };
    const listeners = new Set<(next: typeof settings) => void>();
    const core = {
      settings: {
        get: () => settings,
        subscribe: (listener: (next: typeof settings) => void) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      handlers: { getActivity: () => Promise.resolve({ sales: [] }) },
      log: { logger: { debug: () => undefined } },
    };
    const change = (next: Partial<typeof shop>) => {
      settings = { shop: { ...settings.shop, ...next } };
      for (const listener of listeners) listener(settings);
    };
    return { core: core as unknown as Core, change };
  }

  it('sends the state when the shop name or till id changes, not on other changes', async () => {
    const { core, change } = coreWithShop({ name: 'Ada Stores', tillId: 'till-hub1' });
    const sent: DisplayStateView[] = [];
    const unwatch = watchDisplayState(core, (state) => sent.push(state));
    change({});
    change({ name: 'Ada Stores Ikeja' });
    change({ tillId: 'till-hub2' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([
      { shopName: 'Ada Stores Ikeja', tillId: 'till-hub1', sale: null },
      { shopName: 'Ada Stores Ikeja', tillId: 'till-hub2', sale: null },
    ]);
    unwatch();
    change({ name: 'Gone' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(2);
  });
});
