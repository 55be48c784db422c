import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { callbackHealth, inflow, ok, sale, status, T0 } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

/** Words only a developer knows, never on the face of a cashier's screen. */
const INTERNAL = /callback|tunnel|polling|session|bank alert|merchant|full sync|till till-/i;

/** What the screen shows outside any closed "Details" (the developer detail, one press away). */
function faceText(root: HTMLElement): string {
  const copy = root.cloneNode(true) as HTMLElement;
  for (const details of copy.querySelectorAll('details')) {
    for (const child of [...details.children]) if (child.tagName !== 'SUMMARY') child.remove();
  }
  return copy.textContent;
}

function withMoneyIn() {
  const bridge = createFakeBridge();
  bridge.getActivity.mockImplementation(() =>
    ok({
      sales: [sale({ id: 7, state: 'paid', createdAt: T0 })],
      inflows: [
        inflow({ source: 'callback' }),
        inflow({ sessionId: '1'.repeat(30), source: 'poll' }),
      ],
      alerts: [],
      standingAccounts: [],
    }),
  );
  return bridge;
}

describe('words for the counter', () => {
  it.each([
    ['live', callbackHealth(), 'Payments show within seconds'],
    ['unproven', callbackHealth({ state: 'unproven', lastProof: null }), 'Payments may show late'],
    ['off', callbackHealth({ state: 'off' }), 'Payments may show late'],
  ])('says in the header what callbacks %s mean for a cashier', async (_state, health, words) => {
    const bridge = createFakeBridge();
    bridge.getStatus.mockImplementation(() => ok(status({ callbackHealth: health })));
    renderApp(bridge);
    expect((await screen.findByTestId('callback-status')).textContent).toBe(words);
    expect(faceText(document.body)).not.toMatch(INTERNAL);
  });

  it('names the till in the footer without "till till-", keeping its id', async () => {
    renderApp(createFakeBridge());
    const tillId = await screen.findByTestId('till-id');
    expect(tillId.textContent).toBe('till-1');
    const footer = tillId.closest('footer');
    expect(footer?.textContent).toMatch(/Mama Put Stores · till-1$/);
    expect(footer?.textContent).not.toMatch(/till till-/);
  });

  it('shows money in as "Received", with how it was heard and the session id under Details', async () => {
    renderApp(withMoneyIn(), '#/activity');
    const inflows = await screen.findByTestId('activity-inflows');
    expect(faceText(document.body)).not.toMatch(INTERNAL);
    const first = within(inflows).getAllByRole('row')[1];
    if (!first) throw new Error('a row of money in expected');
    expect(faceText(first)).toMatch(/Received/);
    const details = within(first).getByText('Details').closest('details');
    expect(details?.open).toBe(false);
    expect(details?.textContent).toContain('Session ID 100004261122090000123456789012');
    expect(details?.textContent).toContain("Heard from the provider's notice");
  });
});
