import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BridgeProvider } from '../../bridge-context';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { alert, ok } from '#support/renderer/fixtures';
import { PaidTwiceNotice } from './paid-twice-notice';

const TWICE = 'CUSTOMER PAID TWICE: sale #7 (₦1,000.00) ... refund the customer ₦1,000.00.';

describe('PaidTwiceNotice', () => {
  it('shows an open paid-twice alert of this sale, and one that arrives while it is shown', async () => {
    const bridge = createFakeBridge();
    bridge.getActivity.mockImplementation(() =>
      ok({
        sales: [],
        inflows: [],
        standingAccounts: [],
        alerts: [
          alert({ id: 1, kind: 'paid_twice', saleId: 7, message: TWICE }),
          alert({ id: 2, kind: 'paid_twice', saleId: 8, message: 'another sale' }),
          alert({ id: 3, kind: 'paid_late', saleId: 7, message: 'not this kind' }),
        ],
      }),
    );
    render(
      <BridgeProvider bridge={bridge}>
        <PaidTwiceNotice saleId={7} paidSessionId={null} />
      </BridgeProvider>,
    );
    const notice = await screen.findByTestId('paid-twice-notice');
    expect(notice.getAttribute('role')).toBe('alert');
    expect(notice.textContent).toContain(TWICE);
    expect(notice.textContent).not.toContain('another sale');
    expect(notice.textContent).not.toContain('not this kind');

    act(() => {
      bridge.emit({
        type: 'alert',
        payload: alert({ id: 4, kind: 'paid_twice', saleId: 7, message: 'a third transfer' }),
      });
      bridge.emit({ type: 'alert', payload: alert({ id: 1, kind: 'paid_twice', saleId: 7 }) });
    });
    expect(screen.getByTestId('paid-twice-notice').querySelectorAll('p')).toHaveLength(2);
    expect(screen.getByTestId('paid-twice-notice').textContent).toContain('a third transfer');
  });

  it('shows nothing for a sale nobody paid twice', async () => {
    const bridge = createFakeBridge();
    render(
      <BridgeProvider bridge={bridge}>
        <PaidTwiceNotice saleId={7} paidSessionId={null} />
      </BridgeProvider>,
    );
    await act(async () => {
      await Promise.resolve();
    });
    expect(bridge.getActivity).toHaveBeenCalled();
    expect(screen.queryByTestId('paid-twice-notice')).toBeNull();
  });

  it('leaves out an alert naming the transfer that now pays the sale (the payment moved to it)', async () => {
    const bridge = createFakeBridge();
    bridge.getActivity.mockImplementation(() =>
      ok({
        sales: [],
        inflows: [],
        standingAccounts: [],
        alerts: [
          alert({ id: 1, kind: 'paid_twice', saleId: 7, sessionId: 'EARLIER', message: 'earlier' }),
          alert({ id: 2, kind: 'paid_twice', saleId: 7, sessionId: 'LATER', message: TWICE }),
        ],
      }),
    );
    render(
      <BridgeProvider bridge={bridge}>
        <PaidTwiceNotice saleId={7} paidSessionId="EARLIER" />
      </BridgeProvider>,
    );
    const notice = await screen.findByTestId('paid-twice-notice');
    expect(notice.textContent).toContain(TWICE);
    expect(notice.textContent).not.toContain('earlier');
  });
});
