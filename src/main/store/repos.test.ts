import { describe, expect, it } from 'vitest';
import { insertPendingAccount } from './accounts-repo';
import { raiseAlert, acknowledgeAlert, listOpenAlerts } from './alerts-repo';
import {
  insertCallback,
  listUnprocessedCallbacks,
  markCallbackProcessed,
} from './callback-log-repo';
import { insertSale, listOpenSales, listSaleEvents, transitionSale } from './sales-repo';
import { callbackUrlRecord } from '#main/security/callback-url-record';
import { createTestDb, explain } from '#support/database';

const SESSION = '100004261122090512345678901234';

describe('inflows', () => {
  it('finds a session and a day range through indexes', () => {
    const { db } = createTestDb();
    expect(explain(db, 'SELECT id FROM inflows WHERE session_id = ?', SESSION).join()).toMatch(
      /USING (COVERING )?INDEX/,
    );
    const plan = explain(
      db,
      `SELECT status, COUNT(*), SUM(amount_kobo) FROM inflows WHERE occurred_at >= ? AND occurred_at < ? GROUP BY status`,
      0,
      1,
    ).join();
    expect(plan).toContain('inflows_day');
  });
});

describe('accounts', () => {
  it('keep the callback address they were made with, without its secret token', () => {
    const { db } = createTestDb();
    const url = 'https://shop-1.ngrok.app/callbacks/Qm9yZWFsLXNlY3JldC10b2tlbi1mb3ItdGVzdHMtb25seQ';
    const account = insertPendingAccount(
      db,
      {
        type: 'nonstatic',
        purpose: 'sale',
        reference: 'TT-1',
        amountKobo: 150000,
        expiryMinutes: 15,
        callbackUrl: url,
      },
      10,
    );
    expect(account.callbackRecord).toBe(callbackUrlRecord(url));
    const stored = db.prepare(`SELECT callback_url FROM virtual_accounts`).pluck().get();
    expect(stored).not.toContain('Qm9yZWFsLXNlY3JldC10b2tlbi1mb3ItdGVzdHMtb25seQ');
  });
});

describe('sales', () => {
  it('stores every state change with its time and cause', () => {
    const { db } = createTestDb();
    const sale = insertSale(
      db,
      { amountKobo: 150000, note: null, cashier: 'Ada', tillId: 'till-1', reference: 'TT-1' },
      10,
      'cashier',
    );
    transitionSale(
      db,
      sale.id,
      { state: 'awaiting_payment', cause: 'account-created', fields: { expiresAt: 1000 } },
      20,
    );
    transitionSale(
      db,
      sale.id,
      { state: 'paid', cause: 'status-confirmed', fields: { paidSessionId: SESSION, paidAt: 30 } },
      30,
    );
    expect(listSaleEvents(db, sale.id).map((e) => [e.fromState, e.toState, e.cause, e.at])).toEqual(
      [
        [null, 'creating', 'cashier', 10],
        ['creating', 'awaiting_payment', 'account-created', 20],
        ['awaiting_payment', 'paid', 'status-confirmed', 30],
      ],
    );
    expect(listOpenSales(db)).toEqual([]);
  });

  it('applies a guarded change only from the expected states', () => {
    const { db } = createTestDb();
    const sale = insertSale(
      db,
      { amountKobo: 100, note: null, cashier: null, tillId: null, reference: 'TT-2' },
      1,
      'cashier',
    );
    transitionSale(db, sale.id, { state: 'cancelled', cause: 'cashier' }, 2);
    expect(
      transitionSale(db, sale.id, { state: 'expired', cause: 'deadline' }, 3, ['awaiting_payment']),
    ).toBeUndefined();
    expect(listSaleEvents(db, sale.id)).toHaveLength(2);
  });

  it('finds open sales through the partial index', () => {
    const { db } = createTestDb();
    const plan = explain(
      db,
      `SELECT id FROM sales WHERE state IN ('creating', 'awaiting_payment', 'confirming', 'wrong_amount')`,
    ).join();
    expect(plan).toContain('sales_open');
  });
});

describe('callback log and alerts', () => {
  it('lists stored callbacks until they are processed', () => {
    const { db } = createTestDb();
    const id = insertCallback(db, {
      receivedAt: 1,
      remoteAddress: '127.0.0.1',
      method: 'POST',
      contentType: 'application/json',
      headers: { 'user-agent': 'provider' },
      body: '{"session_id":"1"}',
      parseStatus: 'ok',
      hint: { sessionId: '1' },
    });
    expect(listUnprocessedCallbacks(db).map((c) => c.id)).toEqual([id]);
    markCallbackProcessed(db, id, 'confirmed', 2);
    expect(listUnprocessedCallbacks(db)).toEqual([]);
  });

  it('raises an alert once per dedupe key and acknowledges it', () => {
    const { db } = createTestDb();
    const first = raiseAlert(
      db,
      { level: 'error', kind: 'paid_late', message: 'Paid late', dedupeKey: 'late:1' },
      1,
    );
    expect(first).toBeDefined();
    expect(
      raiseAlert(
        db,
        { level: 'error', kind: 'paid_late', message: 'Paid late', dedupeKey: 'late:1' },
        2,
      ),
    ).toBeUndefined();
    expect(listOpenAlerts(db)).toHaveLength(1);
    expect(acknowledgeAlert(db, first!.id, 3)).toBe(true);
    expect(acknowledgeAlert(db, first!.id, 4)).toBe(false);
    expect(listOpenAlerts(db)).toEqual([]);
  });
});
