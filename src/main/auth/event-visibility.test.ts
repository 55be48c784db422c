import { describe, expect, it } from 'vitest';
import type { BridgeEvent, Caller } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import { eventVisibleTo, type SaleOwner } from './event-visibility';

const owner: Caller = { role: 'owner', name: null, sessionId: 'o', via: 'browser' };
const ade: Caller = { role: 'cashier', name: 'Ade', sessionId: 'a', via: 'browser' };
const signedOut: Caller = { role: 'cashier', name: null, sessionId: 's', via: 'browser' };
const counterClaimingOwner: Caller = { role: 'owner', name: 'Ade', sessionId: 'c', via: 'counter' };

/** Sale 1 is Ade's at the hub, 2 is Bola's at the hub, 3 is Ade's at the front counter. */
const SALES: Readonly<Record<number, SaleOwner>> = {
  1: { cashier: 'Ade', tillId: 'till-hub1' },
  2: { cashier: 'Bola', tillId: 'till-hub1' },
  3: { cashier: 'Ade', tillId: 'till-frnt' },
};
const cashierOf = (saleId: number): SaleOwner | null => SALES[saleId] ?? null;

const front: Caller = {
  role: 'cashier',
  name: null,
  sessionId: 'f',
  via: 'counter',
  counter: { id: 1, name: 'Front', tillId: 'till-frnt' },
};
const frontWithAde: Caller = { ...front, name: 'Ade', sessionId: 'fa' };

function sale(id: number, cashier: string | null, tillId = SALES[id]?.tillId ?? null): BridgeEvent {
  return { type: 'sale-changed', payload: { id, cashier, tillId } as SaleView };
}
const inflow = (saleId: number | null): BridgeEvent => ({
  type: 'inflow',
  payload: {
    sessionId: '1'.repeat(30),
    externalReference: null,
    amountKobo: 100,
    status: 'success',
    occurredAt: 0,
    source: 'callback',
    saleId,
    firstSeenAt: 0,
  },
});
const alert = (saleId: number | null): BridgeEvent => ({
  type: 'alert',
  payload: {
    id: 1,
    createdAt: 0,
    level: 'warning',
    kind: 'k',
    saleId,
    message: 'm',
    sessionId: null,
    acknowledgedAt: null,
    closedBy: null,
    action: null,
  },
});
const sync: BridgeEvent = {
  type: 'sync-progress',
  payload: {} as Extract<BridgeEvent, { type: 'sync-progress' }>['payload'],
};
const navigate: BridgeEvent = { type: 'navigate', payload: { route: 'settings' } };
const tunnel: BridgeEvent = {
  type: 'tunnel',
  payload: {} as Extract<BridgeEvent, { type: 'tunnel' }>['payload'],
};
const displayState: BridgeEvent = {
  type: 'display-state',
  payload: { shopName: 'Mama Put', tillId: 'till-hub1', sale: null },
};

describe('which pushed events a listener hears', () => {
  it('gives the owner everything', () => {
    for (const event of [sale(2, 'Bola'), inflow(null), alert(null), sync, navigate]) {
      expect(eventVisibleTo(event, owner, cashierOf)).toBe(true);
    }
  });

  it('gives a cashier their own sales, money and alerts only, and no sync', () => {
    expect(eventVisibleTo(sale(1, 'Ade'), ade, cashierOf)).toBe(true);
    expect(eventVisibleTo(sale(2, 'Bola'), ade, cashierOf)).toBe(false);
    expect(eventVisibleTo(inflow(1), ade, cashierOf)).toBe(true);
    expect(eventVisibleTo(inflow(2), ade, cashierOf)).toBe(false);
    expect(eventVisibleTo(inflow(null), ade, cashierOf)).toBe(false);
    expect(eventVisibleTo(alert(1), ade, cashierOf)).toBe(true);
    expect(eventVisibleTo(alert(null), ade, cashierOf)).toBe(false);
    expect(eventVisibleTo(sync, ade, cashierOf)).toBe(false);
    expect(eventVisibleTo(navigate, ade, cashierOf)).toBe(true);
  });

  it('gives a counter the cashier rule, whatever its session claims', () => {
    expect(eventVisibleTo(sale(2, 'Bola'), counterClaimingOwner, cashierOf)).toBe(false);
    expect(eventVisibleTo(sync, counterClaimingOwner, cashierOf)).toBe(false);
  });

  it("gives a paired counter its own till's sales, money and alerts only, signed in or not", () => {
    for (const who of [front, frontWithAde]) {
      expect(eventVisibleTo(sale(3, 'Ade'), who, cashierOf)).toBe(true);
      expect(eventVisibleTo(sale(3, null), who, cashierOf)).toBe(true);
      // The hub's own sales, even one made by the cashier signed in at the counter.
      expect(eventVisibleTo(sale(1, 'Ade'), who, cashierOf)).toBe(false);
      expect(eventVisibleTo(sale(2, 'Bola'), who, cashierOf)).toBe(false);
      expect(eventVisibleTo(inflow(3), who, cashierOf)).toBe(true);
      expect(eventVisibleTo(inflow(1), who, cashierOf)).toBe(false);
      expect(eventVisibleTo(inflow(null), who, cashierOf)).toBe(false);
      expect(eventVisibleTo(alert(3), who, cashierOf)).toBe(true);
      expect(eventVisibleTo(alert(1), who, cashierOf)).toBe(false);
      expect(eventVisibleTo(alert(null), who, cashierOf)).toBe(false);
      expect(eventVisibleTo(sync, who, cashierOf)).toBe(false);
      expect(eventVisibleTo(navigate, who, cashierOf)).toBe(false);
      expect(eventVisibleTo(tunnel, who, cashierOf)).toBe(true);
    }
    // A 'counter' listener whose counter is not known hears no sale at all.
    const unpaired: Caller = { role: 'cashier', name: 'Ade', sessionId: 'u', via: 'counter' };
    expect(eventVisibleTo(sale(3, 'Ade'), unpaired, cashierOf)).toBe(false);
    expect(eventVisibleTo(inflow(3), unpaired, cashierOf)).toBe(false);
  });

  it("tells every till page, the hub's counters too, when the provider cannot be reached", () => {
    const reach: BridgeEvent = {
      type: 'provider-reach',
      payload: { state: 'unreachable', since: 1 },
    };
    for (const who of [owner, ade, signedOut, front, frontWithAde, counterClaimingOwner]) {
      expect(eventVisibleTo(reach, who, cashierOf)).toBe(true);
    }
  });

  it('sends display-state to no listener (the shell gives it to customer displays itself)', () => {
    for (const who of [owner, ade, signedOut, front]) {
      expect(eventVisibleTo(displayState, who, cashierOf)).toBe(false);
    }
  });

  it('gives a signed-out page (a customer display) the sales it shows, but no money list', () => {
    expect(eventVisibleTo(sale(2, 'Bola'), signedOut, cashierOf)).toBe(true);
    expect(eventVisibleTo(inflow(1), signedOut, cashierOf)).toBe(false);
    expect(eventVisibleTo(alert(1), signedOut, cashierOf)).toBe(false);
    expect(eventVisibleTo(sync, signedOut, cashierOf)).toBe(false);
  });
});
