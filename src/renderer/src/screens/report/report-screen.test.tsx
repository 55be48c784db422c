import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InflowView } from '#shared/sales';
import type { ChannelInput } from '#shared/bridge/contract';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { fail, inflow, ok, zReport } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** A day of `total` transactions; listTransactions pages and filters them like main would. */
function withTransactions(total: number) {
  const all: InflowView[] = Array.from({ length: total }, (_, i) =>
    inflow({
      sessionId: `1000042611220900000000${String(i).padStart(8, '0')}`,
      externalReference: `TT-${i}`,
      status: i % 10 === 0 ? 'failed' : 'success',
      amountKobo: (i + 1) * 100,
    }),
  );
  const bridge = createFakeBridge();
  bridge.getZReport.mockImplementation(() => ok(zReport()));
  bridge.listTransactions.mockImplementation((input: ChannelInput<'listTransactions'>) => {
    const matching = all.filter(
      (row) =>
        (!input.status || row.status === input.status) &&
        (!input.search || row.externalReference === input.search),
    );
    const offset = input.offset ?? 0;
    const limit = input.limit ?? 100;
    return ok({ rows: matching.slice(offset, offset + limit), total: matching.length });
  });
  return bridge;
}

function readBlob(blob: Blob | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!blob) return reject(new Error('no blob'));
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(new Error('unreadable blob'));
    reader.readAsText(blob);
  });
}

function tableRows(): HTMLElement[] {
  return within(screen.getByTestId('transactions-table')).getAllByRole('row').slice(1);
}

describe('Report screen', () => {
  it('shows the headline figures, breakdowns, exceptions and last sync', async () => {
    renderApp(withTransactions(3), '#/report');
    expect((await screen.findByTestId('report-success-count')).textContent).toBe('42');
    expect(screen.getByTestId('report-success-amount').textContent).toBe('₦123,456.00');
    expect(screen.getByTestId('report-failed-count').textContent).toBe('3');
    // Transfers the bank did not complete are not the shop's loss: a neutral "Not completed",
    // and no developer words on the headline figures.
    const notCompleted = screen.getByTestId('report-failed-count').closest('.figure');
    expect(notCompleted?.querySelector('h3')?.textContent).toBe('Not completed');
    const figures = notCompleted?.parentElement?.textContent ?? '';
    expect(figures).not.toMatch(/Failed|merchant account/);
    expect(screen.getByTestId('report-pending-count').textContent).toBe('2');
    expect(screen.getByText('₦3,456.00')).toBeTruthy(); // the standing accounts
    expect(screen.getByText('09:00–10:00')).toBeTruthy();
    expect(screen.queryByText('10:00–11:00')).toBeNull(); // hours without transfers are left out
    expect(screen.getByText('₦103,456.00')).toBeTruthy(); // the 13:00 hour
    expect(screen.getByRole('cell', { name: 'Ada' })).toBeTruthy();
    const exceptions = screen.getByTestId('report-exceptions');
    expect(exceptions.textContent).toContain('No till of this shop made it');
    expect(exceptions.textContent).toContain(
      'What to do: Check whether another till or the standing account took it.',
    );
    expect(screen.getByTestId('last-sync').textContent).toMatch(
      /^Last synced at .*10:00:05.* \(complete\)$/,
    );
    expect(screen.getByLabelText('Day')).toHaveProperty('value', '2026-11-22');
  });

  it('shows a reversed payment first, as an error, and the unreadable rows and callbacks', async () => {
    const bridge = withTransactions(0);
    const base = zReport();
    const run = base.lastSync;
    if (!run) throw new Error('fixture has a last sync');
    bridge.getZReport.mockImplementation(() =>
      ok(
        zReport({
          lastSync: { ...run, unreadable: 2 },
          exceptions: [
            ...base.exceptions,
            {
              key: 'unreadable_rows:since:1',
              resolution: null,
              kind: 'unreadable_rows',
              saleId: null,
              sessionId: null,
              amountKobo: null,
              at: run.startedAt - 1,
              message:
                "2 rows of the provider's transaction list could not be read: session_id: missing (2 rows).",
              action: 'Sync again later.',
            },
            {
              key: 'reversed:sale:12',
              resolution: null,
              kind: 'reversed',
              saleId: 12,
              sessionId: '100004261122090000000000000012',
              amountKobo: 250_000,
              at: run.startedAt + 1,
              message:
                'Sale #12 (₦2,500.00) was marked paid, but the provider now reports that payment as failed.',
              action: 'Do not count this money as received.',
            },
            {
              key: 'wrong_amount:session:3',
              resolution: null,
              kind: 'wrong_amount',
              saleId: 14,
              sessionId: '100004261122090000000000000003',
              amountKobo: 190_000,
              at: run.startedAt + 3,
              message: 'Wrong amount ₦1,900.00: not accepted. It was sent for sale #14 at 09:00.',
              action: 'Nothing to record: the provider did not accept this payment.',
            },
            {
              key: 'unreadable_callbacks:since:2',
              resolution: null,
              kind: 'unreadable_callbacks',
              saleId: null,
              sessionId: null,
              amountKobo: null,
              at: run.startedAt + 2,
              message:
                '3 payment notifications (callbacks) received in this period could not be read.',
              action: 'Nothing is lost.',
            },
          ],
        }),
      ),
    );
    renderApp(bridge, '#/report');
    const list = await screen.findByTestId('report-exceptions');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(4);
    expect(items[0]?.textContent).toMatch(
      /^Error: Reversed by the provider · ₦2,500.00 · sale #12/,
    );
    expect(items[0]?.getAttribute('data-severity')).toBe('error');
    expect(items[0]?.className).toBe('exception-error');
    expect(items.slice(1).map((item) => item.getAttribute('data-severity'))).toEqual([
      'warning',
      'warning',
      'warning',
    ]);
    expect(list.textContent).toContain('Unreadable bank rows');
    expect(list.textContent).toContain('What to do: Sync again later.');
    expect(list.textContent).toContain('Unreadable callbacks');
    expect(screen.getByText('Needs a person (4)')).toBeTruthy();
    // A routine rejected wrong amount is information, listed apart, not work for a person.
    expect(list.textContent).not.toContain('Wrong amount');
    const information = screen.getByTestId('report-information');
    expect(screen.getByText('For information (1)')).toBeTruthy();
    expect(information.textContent).toContain('Wrong amount ₦1,900.00: not accepted.');
    // Its status line is the table's answer, as in the PDF and the CSV: nobody needs to act.
    expect(information.textContent).toContain('For information: nobody needs to act.');
    expect(information.textContent).not.toContain('Open');
    expect(screen.getByTestId('last-sync').textContent).toMatch(
      /\(complete; 2 rows could not be read\)$/,
    );
  });

  it('says how many rows a finished sync could not read', async () => {
    const user = userEvent.setup();
    const bridge = withTransactions(1);
    const run = zReport().lastSync;
    if (!run) throw new Error('fixture has a last sync');
    bridge.syncTransactions.mockImplementation(() =>
      ok({ ...run, mode: 'full', collected: 300, inserted: 12, unreadable: 1 }),
    );
    renderApp(bridge, '#/report');
    await user.click(await screen.findByRole('button', { name: 'Sync' }));
    expect(
      await screen.findByText(
        'Sync complete: 300 transactions checked, 12 new. 1 row could not be read (kept; see the exceptions below).',
      ),
    ).toBeTruthy();
  });

  it('counts one transaction checked in the singular', async () => {
    const user = userEvent.setup();
    const bridge = withTransactions(1);
    const run = zReport().lastSync;
    if (!run) throw new Error('fixture has a last sync');
    bridge.syncTransactions.mockImplementation(() =>
      ok({ ...run, mode: 'full', collected: 1, inserted: 1, unreadable: 0 }),
    );
    renderApp(bridge, '#/report');
    await user.click(await screen.findByRole('button', { name: 'Sync' }));
    expect(await screen.findByText('Sync complete: 1 transaction checked, 1 new.')).toBeTruthy();
  });

  it.each([
    ['a day still running', -1, 'Still open now'],
    ['a day that is over', 1, 'Still open at cut-off'],
  ])('names a waiting sale of %s by the time of day', async (_, offsetMs, title) => {
    const bridge = createFakeBridge();
    const base = zReport();
    bridge.getZReport.mockImplementation(() =>
      ok({
        ...base,
        generatedAt: base.toMs + offsetMs,
        exceptions: [
          {
            key: 'open_at_cutoff:sale:7',
            resolution: null,
            kind: 'open_at_cutoff',
            saleId: 7,
            sessionId: null,
            amountKobo: 80_000,
            at: base.fromMs + 1,
            message: 'Sale #7 for ₦800.00, started at 14:00, is still waiting for payment.',
            action: 'Open the sale.',
          },
        ],
      }),
    );
    renderApp(bridge, '#/report');
    const list = await screen.findByTestId('report-exceptions');
    expect(within(list).getByRole('listitem').textContent).toMatch(new RegExp(`^${title} · `));
  });

  it('says when the last sync did not finish', async () => {
    const bridge = withTransactions(0);
    const base = zReport();
    bridge.getZReport.mockImplementation(() =>
      ok(zReport({ lastSync: base.lastSync && { ...base.lastSync, status: 'failed' } })),
    );
    renderApp(bridge, '#/report');
    expect((await screen.findByTestId('last-sync')).textContent).toContain('(not finished)');
    expect(await screen.findByText('No transactions match.')).toBeTruthy();
  });

  it('loads another day from the day picker', async () => {
    const bridge = withTransactions(3);
    renderApp(bridge, '#/report');
    await screen.findByTestId('report-success-count');
    expect(bridge.getZReport).toHaveBeenCalledWith({});
    const picker = screen.getByLabelText('Day');
    fireEvent.change(picker, { target: { value: '2026-11-20' } });
    await waitFor(() => expect(bridge.getZReport).toHaveBeenLastCalledWith({ day: '2026-11-20' }));
    await waitFor(() =>
      expect(bridge.listTransactions).toHaveBeenLastCalledWith({
        day: '2026-11-20',
        offset: 0,
        limit: 50,
      }),
    );
  });

  it('pages through many transactions without loading them all', async () => {
    const user = userEvent.setup();
    const bridge = withTransactions(12_345);
    renderApp(bridge, '#/report');
    await waitFor(() => expect(tableRows()).toHaveLength(50));
    expect(screen.getByTestId('transactions-summary').textContent).toBe('Showing 1–50 of 12,345');
    expect(bridge.listTransactions).toHaveBeenLastCalledWith({ offset: 0, limit: 50 });
    expect(screen.getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() =>
      expect(screen.getByTestId('transactions-summary').textContent).toBe(
        'Showing 51–100 of 12,345',
      ),
    );
    expect(bridge.listTransactions).toHaveBeenLastCalledWith({ offset: 50, limit: 50 });
    expect(tableRows()[0]?.textContent).toContain('TT-50');

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(tableRows()[0]?.textContent).toContain('TT-0'));
  });

  it('filters by status and starts again at the first page', async () => {
    const user = userEvent.setup();
    const bridge = withTransactions(1000);
    renderApp(bridge, '#/report');
    await waitFor(() => expect(tableRows()).toHaveLength(50));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() =>
      expect(bridge.listTransactions).toHaveBeenLastCalledWith({ offset: 50, limit: 50 }),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'failed');
    await waitFor(() =>
      expect(screen.getByTestId('transactions-summary').textContent).toBe('Showing 1–50 of 100'),
    );
    expect(bridge.listTransactions).toHaveBeenLastCalledWith({
      status: 'failed',
      offset: 0,
      limit: 50,
    });
    expect(tableRows().every((row) => row.textContent.includes('failed'))).toBe(true);
  });

  it('searches by reference, session id or amount', async () => {
    const user = userEvent.setup();
    const bridge = withTransactions(200);
    renderApp(bridge, '#/report');
    await waitFor(() => expect(tableRows()).toHaveLength(50));
    await user.type(
      screen.getByRole('searchbox', { name: 'Search reference, session ID or amount' }),
      'TT-123{Enter}',
    );
    await waitFor(() => expect(tableRows()).toHaveLength(1));
    expect(bridge.listTransactions).toHaveBeenLastCalledWith({
      search: 'TT-123',
      offset: 0,
      limit: 50,
    });
    expect(tableRows()[0]?.textContent).toContain('₦124.00');
  });

  it('exports the CSV as a download with the given file name', async () => {
    const user = userEvent.setup();
    const bridge = withTransactions(1);
    bridge.exportCsv.mockImplementation(() =>
      ok({
        filename: 'transfer-till-2026-11-22.csv',
        csv: 'session_id,amount\n1,1500.00\n',
        rows: 1,
      }),
    );
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:report';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(`${this.download} ${this.href}`);
    });
    renderApp(bridge, '#/report');
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(bridge.exportCsv).toHaveBeenCalledWith({});
    await waitFor(() => expect(downloads).toEqual(['transfer-till-2026-11-22.csv blob:report']));
    expect(await readBlob(blobs[0])).toBe('session_id,amount\n1,1500.00\n');
    expect(blobs[0]?.type).toBe('text/csv;charset=utf-8');
    expect(screen.getByText('Saved transfer-till-2026-11-22.csv (1 rows).')).toBeTruthy();
  });

  it('syncs with a progress bar, can cancel, and reloads the report when finished', async () => {
    const user = userEvent.setup();
    const bridge = withTransactions(1);
    const run = zReport().lastSync;
    if (!run) throw new Error('fixture has a last sync');
    bridge.syncTransactions.mockImplementation(() =>
      ok({ ...run, id: 10, status: 'running', finishedAt: null }),
    );
    bridge.cancelSync.mockImplementation(() => ok({ cancelled: true }));
    renderApp(bridge, '#/report');
    await screen.findByTestId('report-success-count');
    expect(bridge.getZReport).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: 'Sync' }));
    expect(bridge.syncTransactions).toHaveBeenCalledWith({ mode: 'incremental' });
    expect(screen.getByRole('button', { name: 'Sync' })).toHaveProperty('disabled', true);
    bridge.emit({ type: 'sync-progress', payload: { runId: 10, collected: 250, count: 1000 } });
    const bar = screen.getByRole('progressbar', { name: 'Sync progress' });
    expect(bar.getAttribute('value')).toBe('250');
    expect(bar.getAttribute('max')).toBe('1000');
    expect(screen.getByText('Syncing: 250 of 1,000')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Cancel sync' }));
    expect(bridge.cancelSync).toHaveBeenCalledWith({});
    bridge.emit({ type: 'sync-finished', payload: { ...run, id: 10, status: 'cancelled' } });
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText(/Sync stopped before the end/)).toBeTruthy();
    await waitFor(() => expect(bridge.getZReport).toHaveBeenCalledTimes(2));
  });

  it('runs a full sync on request and reports a finished run at once', async () => {
    const user = userEvent.setup();
    const bridge = withTransactions(1);
    const run = zReport().lastSync;
    if (!run) throw new Error('fixture has a last sync');
    bridge.syncTransactions.mockImplementation(() =>
      ok({ ...run, mode: 'full', collected: 1200, inserted: 30 }),
    );
    renderApp(bridge, '#/report');
    await screen.findByTestId('report-success-count');
    await user.click(screen.getByRole('checkbox', { name: 'Check every payment again' }));
    await user.click(screen.getByRole('button', { name: 'Sync' }));
    expect(bridge.syncTransactions).toHaveBeenCalledWith({ mode: 'full' });
    expect(
      await screen.findByText('Sync complete: 1,200 transactions checked, 30 new.'),
    ).toBeTruthy();
  });

  it('shows report errors in words and prints the report', async () => {
    const user = userEvent.setup();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const bridge = withTransactions(1);
    bridge.getZReport.mockImplementation(() => fail('BRIDGE_OFFLINE', 'down'));
    renderApp(bridge, '#/report');
    expect((await screen.findByRole('alert')).textContent).toContain('till service is not running');
    await user.click(screen.getByRole('button', { name: 'Print report' }));
    expect(print).toHaveBeenCalledTimes(1);
  });
});
