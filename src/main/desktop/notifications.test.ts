import { describe, expect, it } from 'vitest';
import type { AlertView, SaleView } from '#shared/sales';
import { notificationFor } from './notifications';

const sale = (state: SaleView['state']): SaleView => ({
  id: 7,
  state,
  reason: null,
  amountKobo: 150_000,
  amountDueKobo: 150_000,
  note: null,
  cashier: null,
  tillId: 'till-1',
  reference: 'TT-1',
  accountNumber: '0123456789',
  accountName: 'Shop',
  bank: 'Sandbox Bank',
  expiresAt: 0,
  paidAt: 0,
  paidSessionId: null,
  createdAt: 0,
  updatedAt: 0,
  callbackMode: 'live',
  paidAfter: null,
  lateResolution: null,
  canRetry: false,
  offlineCause: false,
  outagePolicy: null,
  outageAction: null,
  refundsOwed: [],
});
const alert = (kind: string, level: AlertView['level']): AlertView => ({
  id: 1,
  createdAt: 0,
  level,
  kind,
  saleId: 7,
  message: `${kind} message`,
  sessionId: null,
  acknowledgedAt: null,
  closedBy: null,
  action: null,
});

describe('notificationFor', () => {
  it('announces a paid sale with its amount', () => {
    expect(notificationFor({ type: 'sale-changed', payload: sale('paid') })).toEqual({
      title: 'Paid: ₦1,500.00',
      body: 'Sale #7 is paid and confirmed with the bank.',
      urgent: false,
    });
  });

  it('makes late payments and errors urgent', () => {
    expect(notificationFor({ type: 'alert', payload: alert('paid_late', 'error') })).toMatchObject({
      title: 'Late payment',
      urgent: true,
    });
    expect(
      notificationFor({ type: 'alert', payload: alert('amount_mismatch', 'error') }),
    ).toMatchObject({ urgent: true });
  });

  it('stays quiet for everything else', () => {
    expect(notificationFor({ type: 'sale-changed', payload: sale('awaiting_payment') })).toBeNull();
    expect(notificationFor({ type: 'alert', payload: alert('poll_cap', 'warning') })).toBeNull();
    expect(notificationFor({ type: 'tunnel', payload: { state: 'off' } })).toBeNull();
  });
});
