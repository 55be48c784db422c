import { describe, expect, it } from 'vitest';
import type { ActivityView } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import type { CallbackHealthView, StatusView } from '#shared/views';
import { EMPTY_BOOK, noteSale, tillSnapshot } from './till-snapshot';

const sale = (id: number, state: SaleView['state'], updatedAt = 1): SaleView => ({
  id,
  state,
  reason: null,
  amountKobo: 150_000,
  amountDueKobo: 150_000,
  note: null,
  cashier: null,
  tillId: 'till-1',
  reference: `TT-${id}`,
  accountNumber: '0123456789',
  accountName: 'Shop',
  bank: 'Sandbox Bank',
  expiresAt: 0,
  paidAt: null,
  paidSessionId: null,
  createdAt: 0,
  updatedAt,
  callbackMode: 'live',
  paidAfter: null,
  lateResolution: null,
  canRetry: false,
  offlineCause: false,
  outagePolicy: null,
  outageAction: null,
  refundsOwed: [],
});

const health = (state: CallbackHealthView['state']): CallbackHealthView => ({
  state,
  since: 0,
  lastProof: null,
  cause: null,
  action: null,
  checkEveryMs: 10_000,
  missedSaleId: null,
  selfTestRunning: false,
  lastSelfTest: null,
});

const status = (overrides: Partial<StatusView> = {}): StatusView => ({
  environment: 'staging',
  shopName: 'Shop',
  tillId: 'till-1',
  timeZone: 'Africa/Lagos',
  callback: { mode: 'tunnel', live: true, tunnel: { state: 'off' } },
  callbackHealth: health('unproven'),
  openAlerts: 2,
  lastSync: null,
  ...overrides,
});

const activity = (sales: readonly SaleView[], standingAccounts = 0): ActivityView => ({
  sales,
  inflows: [],
  alerts: [],
  standingAccounts: Array.from({ length: standingAccounts }, (_, i) => ({
    id: i + 1,
    type: 'static' as const,
    reference: `C-${i}`,
    accountNumber: null,
    accountName: null,
    bank: null,
    amountKobo: null,
    createdAt: 0,
  })),
});

describe('tillSnapshot', () => {
  it('reads the state, alerts, open sales and standing accounts', () => {
    const snapshot = tillSnapshot(
      status(),
      activity([sale(1, 'awaiting_payment'), sale(2, 'paid'), sale(3, 'wrong_amount')], 2),
      EMPTY_BOOK,
      3,
    );
    expect(snapshot).toEqual({
      environment: 'staging',
      callbacks: 'unproven',
      openSales: 2,
      standingAccounts: 2,
      openAlerts: 2,
      connectedCounters: 3,
      providerUnreachable: false,
    });
  });

  it('reads whether the provider can be reached (an old core that does not say: reachable)', () => {
    const down = status({ providerReach: { state: 'unreachable', since: 5 } });
    expect(tillSnapshot(down, activity([]), EMPTY_BOOK).providerUnreachable).toBe(true);
    const up = status({ providerReach: { state: 'reachable', since: 6 } });
    expect(tillSnapshot(up, activity([]), EMPTY_BOOK).providerUnreachable).toBe(false);
  });

  it("counts an open sale from before the day's cut-off that only the events know", () => {
    const book = noteSale(EMPTY_BOOK, sale(9, 'awaiting_payment'));
    expect(tillSnapshot(status(), activity([sale(1, 'confirming')]), book).openSales).toBe(2);
  });

  it('lets the activity decide for the sales it lists', () => {
    // The event said open; the activity, read after it, says paid.
    const book = noteSale(EMPTY_BOOK, sale(1, 'awaiting_payment'));
    expect(tillSnapshot(status(), activity([sale(1, 'paid', 2)]), book).openSales).toBe(0);
  });
});

describe('noteSale', () => {
  it('keeps open sales and drops them when they close', () => {
    const open = noteSale(EMPTY_BOOK, sale(1, 'awaiting_payment', 1));
    expect([...open.keys()]).toEqual([1]);
    expect(noteSale(open, sale(1, 'expired', 2)).size).toBe(0);
    expect(noteSale(open, sale(1, 'paid_late', 2)).size).toBe(0);
  });

  it('ignores an older event arriving late', () => {
    const closed = noteSale(noteSale(EMPTY_BOOK, sale(1, 'creating', 5)), sale(1, 'confirming', 6));
    expect(noteSale(closed, sale(1, 'creating', 5)).get(1)?.state).toBe('confirming');
  });
});
