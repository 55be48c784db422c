import { describe, expect, it } from 'vitest';
import type { BridgeEvent, Caller } from '../../shared/bridge/contract';
import type { SaleView } from '../../shared/sales';
import { eventVisibleTo } from './event-visibility';

const owner: Caller = { role: 'owner', name: null, sessionId: 'o', via: 'browser' };
const ade: Caller = { role: 'cashier', name: 'Ade', sessionId: 'a', via: 'browser' };
const signedOut: Caller = { role: 'cashier', name: null, sessionId: 's', via: 'browser' };
const counterClaimingOwner: Caller = { role: 'owner', name: 'Ade', sessionId: 'c', via: 'counter' };

const cashierOf = (saleId: number) => (saleId === 1 ? 'Ade' : saleId === 2 ? 'Bola' : null);

function sale(id: number, cashier: string | null): BridgeEvent {
  return { type: 'sale-changed', payload: { id, cashier } as SaleView };
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
    acknowledgedAt: null,
  },
});
const sync: BridgeEvent = {
  type: 'sync-progress',
  payload: {} as Extract<BridgeEvent, { type: 'sync-progress' }>['payload'],
};
const navigate: BridgeEvent = { type: 'navigate', payload: { route: 'settings' } };

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

  it('gives a signed-out page (a customer display) the sales it shows, but no money list', () => {
    expect(eventVisibleTo(sale(2, 'Bola'), signedOut, cashierOf)).toBe(true);
    expect(eventVisibleTo(inflow(1), signedOut, cashierOf)).toBe(false);
    expect(eventVisibleTo(alert(1), signedOut, cashierOf)).toBe(false);
    expect(eventVisibleTo(sync, signedOut, cashierOf)).toBe(false);
  });
});
