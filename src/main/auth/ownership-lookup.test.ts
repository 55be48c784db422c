import { afterEach, describe, expect, it } from 'vitest';
import { acknowledgeAlert, raiseAlert } from '#main/store/alerts-repo';
import type { Db } from '#main/store/database';
import { insertSale } from '#main/store/sales-repo';
import { createTestDb } from '#support/database';
import { ownershipLookup } from './ownership-lookup';
import { ownershipRefusal } from './ownership';

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

describe('the ownership lookup over a real database', () => {
  it('reads whose a sale is and which sale an alert is about, acknowledged alerts included', () => {
    const { db } = createTestDb();
    opened.push(db);
    const sale = insertSale(
      db,
      { amountKobo: 150_000, note: null, cashier: 'Ade', tillId: 'till-frnt', reference: 'TF-1' },
      1_000,
      'test',
    );
    const about = raiseAlert(
      db,
      { level: 'warning', kind: 'underpaid', message: 'short', saleId: sale.id },
      2_000,
    );
    const shop = raiseAlert(db, { level: 'warning', kind: 'unmatched', message: 'who?' }, 2_000);
    if (!about || !shop) throw new Error('no alert raised');
    acknowledgeAlert(db, about.id, 3_000);
    const lookup = ownershipLookup(() => db);

    expect(lookup.sale(sale.id)).toEqual({ cashier: 'Ade', tillId: 'till-frnt' });
    expect(lookup.sale(sale.id + 1)).toBeUndefined();
    expect(lookup.alert(about.id)).toEqual({ saleId: sale.id });
    expect(lookup.alert(shop.id)).toEqual({ saleId: null });
    expect(lookup.alert(shop.id + 1)).toBeUndefined();

    const front = {
      role: 'cashier',
      name: null,
      sessionId: 's',
      via: 'counter',
      counter: { id: 1, name: 'Front', tillId: 'till-frnt' },
    } as const;
    const alert = { item: 'alert', field: 'alertId' } as const;
    expect(ownershipRefusal(alert, { alertId: about.id }, front, lookup)).toBeNull();
    expect(ownershipRefusal(alert, { alertId: shop.id }, front, lookup)?.code).toBe('FORBIDDEN');
  });
});
