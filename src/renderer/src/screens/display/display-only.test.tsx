import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { BridgeEvent } from '#shared/bridge/contract';
import { App } from '../../app';
import { createHttpBridge, memorySlot } from '../../bridge/http-bridge';
import { createFakeShellHttp, eventFrame, readyFrame } from '#support/renderer/fake-shell-http';
import { sale } from '#support/renderer/fixtures';

function frame(id: string, event: BridgeEvent): string {
  return eventFrame(id, event);
}

/** The customer display opened with its own token, over a real HTTP bridge to a fake shell. */
async function openDisplay() {
  window.history.replaceState(null, '', '#/display');
  const shell = createFakeShellHttp();
  const fetchSpy = vi.fn(shell.fetch);
  const bridge = createHttpBridge('display-token', fetchSpy, memorySlot());
  render(<App bridge={bridge} displayOnly />);
  await vi.waitFor(() => expect(shell.streams.length).toBe(1));
  return { shell, fetchSpy };
}

describe('the customer display with its own token', () => {
  it('makes no call at all and shows what display-state says, then follows the sale', async () => {
    const { shell, fetchSpy } = await openDisplay();
    expect(screen.getByRole('status').textContent).toContain('Connecting');
    const running = sale({ id: 9, amountKobo: 250_000, tillId: 'till-1' });
    act(() =>
      shell.latest().push(
        readyFrame('b.0') +
          frame('b.1', {
            type: 'display-state',
            payload: { shopName: 'Mama Put Stores', tillId: 'till-1', sale: running },
          }),
      ),
    );
    expect((await screen.findByTestId('amount-due')).textContent).toBe('₦2,500.00');
    expect(screen.getByTestId('bank-name').textContent).toBe('Wema Bank');

    act(() =>
      shell
        .latest()
        .push(frame('b.2', { type: 'sale-changed', payload: { ...running, state: 'paid' } })),
    );
    expect(await screen.findByText('Paid, thank you')).toBeTruthy();

    // The shop renamed: a new display-state; the paid sale's "Thank you" is let finish.
    act(() =>
      shell.latest().push(
        frame('b.3', {
          type: 'display-state',
          payload: { shopName: 'Mama Put Superstore', tillId: 'till-1', sale: null },
        }),
      ),
    );
    expect(screen.getByText('Paid, thank you')).toBeTruthy();

    // Only the event stream was ever asked for: not getSession, getStatus, getAppInfo...
    const urls = fetchSpy.mock.calls.map(([input]) => (typeof input === 'string' ? input : ''));
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.every((url) => url.startsWith('/api/events'))).toBe(true);
    expect(shell.calls).toHaveLength(0);
  });

  it('welcomes with the shop name when no sale runs', async () => {
    const { shell } = await openDisplay();
    act(() =>
      shell.latest().push(
        readyFrame('b.0') +
          frame('b.1', {
            type: 'display-state',
            payload: { shopName: 'Mama Put Stores', tillId: 'till-1', sale: null },
          }),
      ),
    );
    expect(await screen.findByText('Welcome')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Mama Put Stores' })).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
