import { describe, expect, it } from 'vitest';
import type { TillSnapshot } from './till-snapshot';
import { TOOLTIP_MAX, TRAY_BADGES, trayState, type TrayMenuItem } from './tray-state';
import { UPDATES_OFF, type UpdateStatus } from './updates';

const quiet: TillSnapshot = {
  environment: 'production',
  callbacks: 'live',
  openSales: 0,
  standingAccounts: 0,
  openAlerts: 0,
  connectedCounters: 0,
};

const labels = (menu: readonly TrayMenuItem[]) =>
  menu.map((item) => (item.kind === 'separator' ? '---' : item.label));
const actions = (menu: readonly TrayMenuItem[]) =>
  menu.flatMap((item) => (item.kind === 'action' ? [item.action] : []));

describe('trayState', () => {
  it('shows a quiet till with no dot and says so', () => {
    const state = trayState({ till: quiet, update: UPDATES_OFF });
    expect(state.iconVariant).toBe('idle');
    expect(TRAY_BADGES[state.iconVariant]).toBe('none');
    expect(state.tooltip).toBe('Transfer Till: no sale waiting · callbacks live');
    expect(labels(state.menu)).toEqual([
      'No sale waiting for payment',
      'Callbacks live',
      '---',
      'Open the till',
      'New sale',
      '---',
      'Quit Transfer Till',
    ]);
    expect(actions(state.menu)).toEqual(['show', 'new-sale', 'quit']);
  });

  it('counts open sales and turns the dot blue', () => {
    const state = trayState({ till: { ...quiet, openSales: 2 }, update: UPDATES_OFF });
    expect(state.iconVariant).toBe('selling');
    expect(TRAY_BADGES.selling).toBe('blue');
    expect(state.tooltip).toBe('Transfer Till: 2 sales waiting · callbacks live');
    expect(labels(state.menu)[0]).toBe('2 sales waiting for payment');
    expect(trayState({ till: { ...quiet, openSales: 1 }, update: UPDATES_OFF }).tooltip).toContain(
      '1 sale waiting',
    );
  });

  it('puts alerts above sales (amber) with a way to read them', () => {
    const state = trayState({
      till: { ...quiet, openSales: 1, openAlerts: 3 },
      update: UPDATES_OFF,
    });
    expect(state.iconVariant).toBe('attention');
    expect(state.tooltip).toBe('Transfer Till: 1 sale waiting · 3 alerts · callbacks live');
    expect(state.menu).toContainEqual({
      kind: 'action',
      action: 'activity',
      label: '3 alerts to read…',
    });
  });

  it('turns red when callbacks do not reach the till, whatever else', () => {
    const state = trayState({
      till: { ...quiet, callbacks: 'not_reaching', openSales: 4, openAlerts: 1 },
      update: UPDATES_OFF,
    });
    expect(state.iconVariant).toBe('trouble');
    expect(TRAY_BADGES.trouble).toBe('red');
    expect(state.tooltip).toContain('callbacks not reaching');
    expect(labels(state.menu)).toContain(
      'Callbacks not reaching the till: it checks each sale itself',
    );
  });

  it('says the provider cannot be reached instead of any callback claim, in red', () => {
    const state = trayState({
      till: { ...quiet, callbacks: 'live', providerUnreachable: true },
      update: UPDATES_OFF,
    });
    expect(state.iconVariant).toBe('trouble');
    expect(state.tooltip).toBe("Transfer Till: no sale waiting · provider can't be reached");
    expect(labels(state.menu)).toContain(
      "Provider can't be reached: payments will show when it is back",
    );
    expect(labels(state.menu).join(' ')).not.toMatch(/callbacks live/i);
    const back = trayState({
      till: { ...quiet, callbacks: 'live', providerUnreachable: false },
      update: UPDATES_OFF,
    });
    expect(back.iconVariant).toBe('idle');
    expect(back.tooltip).toContain('callbacks live');
  });

  it.each([
    ['unproven', 'callbacks not proven yet'],
    ['off', 'callbacks off'],
  ] as const)('names callbacks %s without alarm', (callbacks, words) => {
    const state = trayState({ till: { ...quiet, callbacks }, update: UPDATES_OFF });
    expect(state.iconVariant).toBe('idle');
    expect(state.tooltip).toContain(words);
  });

  it('names a test environment and standing accounts', () => {
    const state = trayState({
      till: { ...quiet, environment: 'sandbox', standingAccounts: 2 },
      update: UPDATES_OFF,
    });
    expect(state.tooltip.startsWith('Transfer Till (sandbox): ')).toBe(true);
    expect(labels(state.menu)).toContain('2 standing accounts taking payments');
  });

  it('keeps the tooltip within what Windows shows', () => {
    const state = trayState({
      till: {
        ...quiet,
        environment: 'staging',
        callbacks: 'unproven',
        openSales: 123_456_789,
        openAlerts: 987_654_321,
      },
      update: UPDATES_OFF,
    });
    expect(state.tooltip.length).toBeLessThanOrEqual(TOOLTIP_MAX);
  });

  it('offers only open and quit while the till starts', () => {
    const state = trayState({ till: null, update: UPDATES_OFF });
    expect(state.tooltip).toBe('Transfer Till: starting…');
    expect(actions(state.menu)).toEqual(['show', 'quit']);
  });

  it.each<[UpdateStatus, string | null, string | null]>([
    [UPDATES_OFF, null, null],
    [{ state: 'idle' }, 'check-updates', 'Check for updates'],
    [{ state: 'checking', userAsked: true }, null, 'Checking for updates…'],
    [{ state: 'available', version: '1.4.0' }, 'download-update', 'Download update 1.4.0'],
    [
      { state: 'downloading', version: '1.4.0', percent: 42 },
      null,
      'Downloading update 1.4.0… 42%',
    ],
    [{ state: 'ready', version: '1.4.0' }, 'install-update', 'Restart to update to 1.4.0'],
    [
      { state: 'failed', message: 'x', at: 1, during: 'check' },
      'check-updates',
      'Check for updates',
    ],
  ])('puts the update line in the menu (%j)', (update, action, label) => {
    const menu = trayState({ till: quiet, update }).menu;
    const updateActions = actions(menu).filter((a) => a.includes('update'));
    expect(updateActions).toEqual(action ? [action] : []);
    if (label) expect(labels(menu)).toContain(label);
    else expect(labels(menu).some((l) => /update/i.test(l))).toBe(false);
    // Quit is always last.
    expect(menu.at(-1)).toEqual({ kind: 'action', action: 'quit', label: 'Quit Transfer Till' });
  });
});
