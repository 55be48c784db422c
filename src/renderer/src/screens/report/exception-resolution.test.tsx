import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { WindowApi } from '#shared/bridge/contract';
import type { ExceptionResolution, ReportException } from '#shared/views';
import { BridgeProvider } from '../../bridge-context';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { fail, ok, T0, zReport } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { ExceptionResolutionPanel } from './exception-resolution';

const KEY = 'unmatched_inflow:session:100004261122090000999999999999';

function exception(resolution: ExceptionResolution | null = null): ReportException {
  return {
    kind: 'unmatched_inflow',
    key: KEY,
    saleId: null,
    sessionId: '100004261122090000999999999999',
    amountKobo: 500_000,
    at: T0,
    message: 'A transfer of ₦5,000.00 matches no sale made here.',
    action: 'Check whether another till or the standing account took it.',
    resolution,
  };
}

const REFUNDED: ExceptionResolution = {
  action: 'refunded',
  bankReference: 'FT2611220001',
  note: null,
  resolvedBy: 'owner',
  resolvedAt: T0 + 3_600_000,
};

/** The fake bridge with the exception channels stubbed. */
function bridgeWith() {
  const bridge = {
    ...createFakeBridge(),
    resolveException: vi.fn<WindowApi['resolveException']>(),
    reopenException: vi.fn<WindowApi['reopenException']>(),
  };
  return bridge;
}

function renderPanel(bridge: ReturnType<typeof bridgeWith>, shown: ReportException) {
  return render(
    <BridgeProvider bridge={bridge}>
      <ExceptionResolutionPanel exception={shown} timeZone="Africa/Lagos" />
    </BridgeProvider>,
  );
}

describe('Exception resolution', () => {
  it('records a refund, showing the refusal when the bank reference is missing', async () => {
    const user = userEvent.setup();
    const bridge = bridgeWith();
    bridge.resolveException
      .mockImplementationOnce(() =>
        fail(
          'BANK_REFERENCE_REQUIRED',
          'Enter the bank reference of the refund transfer (it is on the transfer receipt).',
          'bankReference',
        ),
      )
      .mockImplementationOnce(() => ok({ key: KEY, resolution: REFUNDED }));
    renderPanel(bridge, exception());

    const panel = screen.getByTestId('exception-resolution');
    expect(panel.dataset.state).toBe('open');
    expect(panel.textContent).toContain('Open: nothing recorded yet.');
    await user.click(screen.getByRole('button', { name: 'Record what was done' }));
    expect(
      screen.getByRole<HTMLInputElement>('radio', { name: 'Refunded by transfer' }).checked,
    ).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Enter the bank reference of the refund transfer (it is on the transfer receipt).',
    );
    const reference = screen.getByRole('textbox', {
      name: 'Bank reference of the refund transfer',
    });
    expect(reference.getAttribute('aria-invalid')).toBe('true');

    await user.type(reference, 'FT2611220001');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(bridge.resolveException).toHaveBeenLastCalledWith({
      key: KEY,
      action: 'refunded',
      bankReference: 'FT2611220001',
      note: '',
    });
    await screen.findByText('Resolved:');
    expect(panel.dataset.state).toBe('resolved');
    expect(panel.textContent).toContain(
      'Refunded by transfer (bank reference FT2611220001) · by owner · ',
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('asks for a note for "Other" and sends no bank reference', async () => {
    const user = userEvent.setup();
    const bridge = bridgeWith();
    bridge.resolveException.mockImplementation(() =>
      ok({
        key: KEY,
        resolution: {
          action: 'other',
          bankReference: null,
          note: 'Customer took a voucher',
          resolvedBy: 'Ada',
          resolvedAt: T0,
        },
      }),
    );
    renderPanel(bridge, exception());
    await user.click(screen.getByRole('button', { name: 'Record what was done' }));
    await user.click(screen.getByRole('radio', { name: 'Other' }));
    expect(
      screen.queryByRole('textbox', { name: 'Bank reference of the refund transfer' }),
    ).toBeNull();
    await user.type(
      screen.getByRole('textbox', { name: 'Note (what was done)' }),
      'Customer took a voucher',
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(bridge.resolveException).toHaveBeenCalledWith({
      key: KEY,
      action: 'other',
      bankReference: null,
      note: 'Customer took a voucher',
    });
    expect(await screen.findByText('Note: Customer took a voucher')).toBeTruthy();
    expect(screen.getByTestId('exception-resolution').textContent).toContain('Other · by Ada');
  });

  it('shows a resolution with what, who and when, and reopens it', async () => {
    const user = userEvent.setup();
    const bridge = bridgeWith();
    bridge.reopenException.mockImplementation(() => ok({ key: KEY, resolution: null }));
    renderPanel(bridge, exception({ ...REFUNDED, note: 'Paid back from the till float' }));
    const panel = screen.getByTestId('exception-resolution');
    expect(panel.dataset.state).toBe('resolved');
    expect(panel.textContent).toContain(
      'Resolved: Refunded by transfer (bank reference FT2611220001) · by owner · 22 Nov 2026',
    );
    expect(panel.textContent).toContain('Note: Paid back from the till float');

    // Changing starts from what is recorded.
    await user.click(screen.getByRole('button', { name: 'Change what was done' }));
    expect(
      screen.getByRole<HTMLInputElement>('textbox', {
        name: 'Bank reference of the refund transfer',
      }).value,
    ).toBe('FT2611220001');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: 'Reopen' }));
    expect(bridge.reopenException).toHaveBeenCalledWith({ key: KEY });
    await screen.findByText('Open: nothing recorded yet.');
    expect(panel.dataset.state).toBe('open');
  });

  it('says why the till service refused', async () => {
    const user = userEvent.setup();
    const bridge = bridgeWith();
    bridge.reopenException.mockImplementation(() =>
      fail(
        'UNKNOWN_EXCEPTION',
        'This exception is not known to this till. Reload the report and try again.',
        'key',
      ),
    );
    renderPanel(bridge, exception(REFUNDED));
    await user.click(screen.getByRole('button', { name: 'Reopen' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This exception is not known to this till. Reload the report and try again.',
    );
    expect(screen.getByTestId('exception-resolution').dataset.state).toBe('resolved');
  });

  it('appears in each exception of the report, open and resolved', async () => {
    const bridge = bridgeWith();
    bridge.getZReport.mockImplementation(() =>
      ok(
        zReport({
          exceptions: [
            exception(),
            {
              ...exception(REFUNDED),
              kind: 'paid_late',
              key: 'paid_late:sale:12',
              saleId: 12,
              sessionId: '100004261122090000999999999998',
            },
          ],
        }),
      ),
    );
    bridge.listTransactions.mockImplementation(() => ok({ rows: [], total: 0 }));
    renderApp(bridge, '#/report');
    const list = await screen.findByTestId('report-exceptions');
    const panels = within(list).getAllByTestId('exception-resolution');
    expect(panels.map((panel) => panel.dataset.state)).toEqual(['open', 'resolved']);
    // Only the status line is printed: the buttons and the form are not.
    for (const button of within(list).getAllByRole('button')) {
      expect(button.closest('.no-print')).not.toBeNull();
    }
  });
});
