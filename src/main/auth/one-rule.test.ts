/**
 * "Who may see this sale" is one rule (ownership.ts's scopeOf). Every place that applies it must
 * agree with it, for every kind of caller: dispatch's refusal, the events a listener hears, the
 * alerts it is counted and listed (an SQL read), and the sales Activity shows it (a till's by SQL,
 * a cashier's by the rule). A divergent copy of the rule in any of them fails the matrix.
 */
import { describe, expect, it } from 'vitest';
import type { BridgeEvent, Caller } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import { createTestDb } from '#support/database';
import { raiseAlert } from '#main/store/alerts-repo';
import { listTillSaleIdsCreatedBetween } from '#main/store/till-sales-queries';
import { visibleOpenAlerts } from './alert-visibility';
import { eventVisibleTo } from './event-visibility';
import { inScope, ownershipRefusal, scopeOf, type SaleOwner } from './ownership';

const SALES: readonly (SaleOwner & { readonly id: number })[] = [
  { id: 1, cashier: 'Ade', tillId: 'till-hub1' },
  { id: 2, cashier: 'Bola', tillId: 'till-hub1' },
  { id: 3, cashier: 'Ade', tillId: 'till-frnt' },
  { id: 4, cashier: null, tillId: 'till-back' },
];

const front = { id: 1, name: 'Front', tillId: 'till-frnt' };
const CALLERS: Readonly<Record<string, Caller>> = {
  owner: { role: 'owner', name: null, sessionId: 'o', via: 'browser' },
  ade: { role: 'cashier', name: 'Ade', sessionId: 'a', via: 'browser' },
  bola: { role: 'cashier', name: 'Bola', sessionId: 'b', via: 'desktop' },
  signedOut: { role: 'cashier', name: null, sessionId: 's', via: 'browser' },
  frontCounter: { role: 'cashier', name: null, sessionId: 'f', via: 'counter', counter: front },
  frontClaimingOwner: {
    role: 'owner',
    name: 'Ade',
    sessionId: 'fo',
    via: 'counter',
    counter: front,
  },
  unpairedCounter: { role: 'cashier', name: 'Ade', sessionId: 'u', via: 'counter' },
};

function storeWithSales() {
  const { db } = createTestDb();
  const insert = db.prepare(
    `INSERT INTO sales (id, amount_kobo, cashier, till_id, state, reference, created_at, updated_at)
     VALUES (?, 100, ?, ?, 'paid', ?, 10, 10)`,
  );
  for (const sale of SALES) {
    insert.run(sale.id, sale.cashier, sale.tillId, `R-${sale.id}`);
    raiseAlert(
      db,
      { level: 'warning', kind: 'k', saleId: sale.id, message: `about ${sale.id}` },
      11,
    );
  }
  return db;
}

const lookup = {
  sale: (id: number) => SALES.find((sale) => sale.id === id),
  alert: (id: number) => ({ saleId: id }),
};

describe('one ownership rule', () => {
  const db = storeWithSales();
  for (const [who, caller] of Object.entries(CALLERS)) {
    it(`${who}: dispatch, events, alerts and Activity see the same sales`, () => {
      const ruled = SALES.filter((sale) => inScope(scopeOf(caller), sale)).map((sale) => sale.id);
      const ownerOf = (id: number) => lookup.sale(id) ?? null;
      const dispatched = SALES.filter(
        (sale) =>
          ownershipRefusal(
            { item: 'sale', field: 'saleId' },
            { saleId: sale.id },
            caller,
            lookup,
          ) === null,
      ).map((sale) => sale.id);
      const alertsActedOn = SALES.filter(
        (sale) =>
          ownershipRefusal(
            { item: 'alert', field: 'alertId' },
            { alertId: sale.id },
            caller,
            lookup,
          ) === null,
      ).map((sale) => sale.id);
      const heard = (event: (id: number) => BridgeEvent) =>
        SALES.filter((sale) => eventVisibleTo(event(sale.id), caller, ownerOf)).map((s) => s.id);
      const alertEvents = heard((saleId) => ({
        type: 'alert',
        payload: { saleId } as Extract<BridgeEvent, { type: 'alert' }>['payload'],
      }));
      const alertsListed = visibleOpenAlerts(db, caller)
        .map((alert) => alert.saleId)
        .sort();
      const scope = scopeOf(caller);
      const activity =
        scope.type === 'till'
          ? listTillSaleIdsCreatedBetween(db, scope.tillId, 0, 100).sort()
          : ruled;

      expect(dispatched).toEqual(ruled);
      expect(alertsActedOn).toEqual(ruled);
      expect(alertEvents).toEqual(ruled);
      expect(alertsListed).toEqual(ruled);
      expect(activity).toEqual(ruled);
      // A signed-out page of the hub (the customer display) hears every sale change; everyone
      // else hears the changes of the sales the rule gives them.
      const saleChanges = heard((id) => ({
        type: 'sale-changed',
        payload: { id, ...lookup.sale(id) } as SaleView,
      }));
      expect(saleChanges).toEqual(who === 'signedOut' ? SALES.map((sale) => sale.id) : ruled);
    });
  }

  it('gives each kind of caller the scope the shop expects', () => {
    const ids = (caller: Caller) =>
      SALES.filter((sale) => inScope(scopeOf(caller), sale)).map((sale) => sale.id);
    expect(ids(CALLERS.owner!)).toEqual([1, 2, 3, 4]);
    expect(ids(CALLERS.ade!)).toEqual([1, 3]);
    expect(ids(CALLERS.frontCounter!)).toEqual([3]);
    expect(ids(CALLERS.frontClaimingOwner!)).toEqual([3]);
    expect(ids(CALLERS.unpairedCounter!)).toEqual([]);
    expect(ids(CALLERS.signedOut!)).toEqual([]);
  });
});
