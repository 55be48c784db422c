import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeSpeech, type FakeSpeech } from '#support/renderer/fake-speech';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import { ok, sale } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

let speech: FakeSpeech | null = null;
afterEach(() => {
  speech?.uninstall();
  speech = null;
});

const T = Date.now();
const waiting = sale({ id: 41, amountKobo: 150_050, updatedAt: T });
const paid = sale({ id: 41, amountKobo: 150_050, state: 'paid', paidAt: T + 5, updatedAt: T + 5 });

async function openSale(bridge: FakeBridge): Promise<void> {
  const user = userEvent.setup();
  bridge.createSale.mockImplementation(() => ok(waiting));
  renderApp(bridge, '#/sale');
  await user.type(await screen.findByRole('textbox', { name: /Amount/ }), '1500.50{Enter}');
  await screen.findByTestId('sale-status');
}

function texts(fake: FakeSpeech): readonly string[] {
  return fake.spoken.map((utterance) => utterance.text);
}

describe('the till says a paid sale', () => {
  it('says the amount with its kobo once, though a reconnect replays the events', async () => {
    const fake = (speech = installFakeSpeech());
    const bridge = createFakeBridge();
    await openSale(bridge);
    expect(fake.spoken).toEqual([]);

    bridge.emit({ type: 'sale-changed', payload: paid });
    await vi.waitFor(() =>
      expect(texts(fake)).toEqual(['one thousand five hundred naira, fifty kobo received']),
    );

    // The stream comes back and replays what it had sent: the old state, then paid again.
    bridge.emit({ type: 'sale-changed', payload: waiting });
    bridge.emit({ type: 'sale-changed', payload: paid });
    bridge.emit({ type: 'sale-changed', payload: { ...paid, updatedAt: T + 9 } });
    await act(() => Promise.resolve());
    expect(texts(fake)).toHaveLength(1);
    expect(screen.getByTestId('sale-status').textContent).toContain('Paid');
  });

  it('says nothing for a sale that is only shown, not seen turning paid', async () => {
    const fake = (speech = installFakeSpeech());
    const bridge = createFakeBridge();
    await openSale(bridge);
    // Another sale's news does not reach this screen.
    bridge.emit({ type: 'sale-changed', payload: { ...paid, id: 99 } });
    bridge.emit({
      type: 'sale-changed',
      payload: { ...waiting, state: 'expired', updatedAt: T + 3 },
    });
    await act(() => Promise.resolve());
    expect(fake.spoken).toEqual([]);
  });

  it('says a payment that lands after the account expired', async () => {
    const fake = (speech = installFakeSpeech());
    const bridge = createFakeBridge();
    await openSale(bridge);
    bridge.emit({
      type: 'sale-changed',
      payload: { ...waiting, state: 'expired', updatedAt: T + 3 },
    });
    bridge.emit({
      type: 'sale-changed',
      payload: { ...paid, state: 'paid_late', updatedAt: T + 8 },
    });
    await vi.waitFor(() =>
      expect(texts(fake)).toEqual(['one thousand five hundred naira, fifty kobo received']),
    );
  });
});
