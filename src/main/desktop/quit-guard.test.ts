import { describe, expect, it } from 'vitest';
import { onQuitRequest, QUIT_ANYWAY_BUTTON, quitConfirmed } from './quit-guard';
import type { TillSnapshot } from './till-snapshot';

const till = (openSales: number, standingAccounts = 0): TillSnapshot => ({
  environment: 'production',
  callbacks: 'live',
  openSales,
  standingAccounts,
  openAlerts: 4,
  connectedCounters: 0,
});

describe('onQuitRequest', () => {
  it('quits at once with no open sale (standing accounts and alerts do not ask)', () => {
    expect(onQuitRequest({ till: till(0, 3), confirmed: false, purpose: 'quit' })).toEqual({
      kind: 'quit',
    });
  });

  it('asks first with open sales, keeping the till running by default', () => {
    const decision = onQuitRequest({ till: till(2), confirmed: false, purpose: 'quit' });
    expect(decision.kind).toBe('ask');
    if (decision.kind !== 'ask') return;
    expect(decision.dialog.title).toBe('Quit Transfer Till?');
    expect(decision.dialog.message).toBe('2 sales are still waiting for payment.');
    expect(decision.dialog.detail).toContain('stops listening for those payments');
    expect(decision.dialog.buttons).toEqual(['Keep the till running', 'Quit anyway']);
    expect(decision.dialog.defaultId).toBe(0);
    expect(decision.dialog.cancelId).toBe(0);
    expect(decision.dialog.buttons[QUIT_ANYWAY_BUTTON]).toBe('Quit anyway');
  });

  it('asks first on a hub with counters connected, even with no open sale', () => {
    const hub = { ...till(0), connectedCounters: 2 };
    const decision = onQuitRequest({ till: hub, confirmed: false, purpose: 'quit' });
    expect(decision.kind === 'ask' && decision.dialog).toMatchObject({
      message: '2 counters are selling through this hub.',
      buttons: ['Keep the till running', 'Quit anyway'],
      defaultId: 0,
    });
    expect(onQuitRequest({ till: hub, confirmed: true, purpose: 'quit' })).toEqual({
      kind: 'quit',
    });
  });

  it('words a restart for an update as such', () => {
    const decision = onQuitRequest({ till: till(1), confirmed: false, purpose: 'update' });
    expect(decision.kind === 'ask' && decision.dialog).toMatchObject({
      title: 'Restart to update?',
      message: 'A sale is still waiting for payment.',
      buttons: ['Keep the till running', 'Restart anyway'],
    });
    expect(decision.kind === 'ask' && decision.dialog.detail).toContain(
      'If the till restarts now, it stops listening for that payment.',
    );
  });

  it('does not ask again once answered, nor block a till it cannot read', () => {
    expect(onQuitRequest({ till: till(2), confirmed: true, purpose: 'quit' }).kind).toBe('quit');
    expect(onQuitRequest({ till: null, confirmed: false, purpose: 'quit' }).kind).toBe('quit');
  });
});

describe('quitConfirmed', () => {
  it('goes ahead only on the quit button (Escape and the default keep the till)', () => {
    expect(quitConfirmed(QUIT_ANYWAY_BUTTON)).toBe(true);
    expect(quitConfirmed(0)).toBe(false);
    expect(quitConfirmed(-1)).toBe(false);
  });
});
