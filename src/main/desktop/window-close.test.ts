import { describe, expect, it } from 'vitest';
import type { TillSnapshot } from './till-snapshot';
import { onWindowClose, type WindowCloseInput } from './window-close';

const till = (openSales: number, standingAccounts = 0): TillSnapshot => ({
  environment: 'production',
  callbacks: 'live',
  openSales,
  standingAccounts,
  openAlerts: 0,
  connectedCounters: 0,
});

const input = (overrides: Partial<WindowCloseInput>): WindowCloseInput => ({
  quitting: false,
  till: till(0),
  trayAvailable: true,
  toldAboutTray: false,
  ...overrides,
});

describe('onWindowClose', () => {
  it('closes (and so quits) a till with nothing that can still be paid', () => {
    expect(onWindowClose(input({}))).toEqual({ kind: 'close' });
  });

  it('hides to the tray while a counter sells through this hub', () => {
    const decision = onWindowClose(input({ till: { ...till(0), connectedCounters: 1 } }));
    expect(decision.kind === 'hide-to-tray' && decision.notice?.body).toContain(
      'A counter is selling through this hub',
    );
  });

  it('hides to the tray while a sale is open, and says so once', () => {
    const first = onWindowClose(input({ till: till(1) }));
    expect(first).toEqual({
      kind: 'hide-to-tray',
      notice: {
        title: 'Transfer Till is still running',
        body: 'A sale is waiting for payment, so the till keeps listening for payments from the tray. Choose "Quit Transfer Till" there to stop it.',
        urgent: false,
      },
    });
    expect(onWindowClose(input({ till: till(3), toldAboutTray: true }))).toEqual({
      kind: 'hide-to-tray',
      notice: null,
    });
  });

  it('hides to the tray while standing accounts exist, with no sale open', () => {
    const decision = onWindowClose(input({ till: till(0, 2) }));
    expect(decision.kind).toBe('hide-to-tray');
    expect(decision.kind === 'hide-to-tray' && decision.notice?.body).toMatch(
      /^Standing accounts can be paid at any time/,
    );
  });

  it('keeps running while the till is not known yet (starting)', () => {
    expect(onWindowClose(input({ till: null })).kind).toBe('hide-to-tray');
  });

  it('minimises instead when the desktop shows no tray', () => {
    expect(onWindowClose(input({ till: till(2), trayAvailable: false }))).toEqual({
      kind: 'minimize',
    });
    expect(onWindowClose(input({ trayAvailable: false }))).toEqual({ kind: 'close' });
  });

  it('closes when the app is quitting, open sales or not', () => {
    expect(onWindowClose(input({ quitting: true, till: till(5, 1) }))).toEqual({ kind: 'close' });
  });
});
