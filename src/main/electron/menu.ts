import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { BridgeEvents } from '#shared/bridge/contract';

type Screen = BridgeEvents['navigate']['route'];

export interface MenuActions {
  navigate(route: Screen): void;
  openCustomerDisplay(): void;
  print(): void;
  /** With no update address set, this opens Settings where it is entered. */
  checkForUpdates(): void;
}

/** The application menu: screens, the customer display, print, and the usual edit/view roles. */
export function installMenu(actions: MenuActions): void {
  const screenItem = (
    label: string,
    route: Screen,
    accelerator: string,
  ): MenuItemConstructorOptions => ({
    label,
    accelerator,
    click: () => actions.navigate(route),
  });
  const template: MenuItemConstructorOptions[] = [
    {
      label: 'Till',
      submenu: [
        screenItem('New sale', 'sale', 'CmdOrCtrl+N'),
        { type: 'separator' },
        {
          label: 'Customer display',
          accelerator: 'CmdOrCtrl+D',
          click: () => actions.openCustomerDisplay(),
        },
        { label: 'Print…', accelerator: 'CmdOrCtrl+P', click: () => actions.print() },
        { type: 'separator' },
        { label: 'Check for updates…', click: () => actions.checkForUpdates() },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'Go',
      submenu: [
        screenItem('Sale', 'sale', 'CmdOrCtrl+1'),
        screenItem('Activity', 'activity', 'CmdOrCtrl+2'),
        screenItem('End of day report', 'report', 'CmdOrCtrl+3'),
        screenItem('Payout balance', 'balance', 'CmdOrCtrl+4'),
        screenItem('Settings', 'settings', 'CmdOrCtrl+,'),
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

export interface CounterMenuActions {
  /** Loads the hub's page again (after the hub was away, or to clear a stuck screen). */
  reload(): void;
  /** Asks, then forgets the hub and restarts this PC as a till of its own. */
  leaveCounterMode(): void;
}

/**
 * The counter's menu: no till screens (they are the hub's page's own navigation), no customer
 * display or print of this PC; only reload, leaving counter mode, and the usual roles.
 */
export function installCounterMenu(actions: CounterMenuActions): void {
  const template: MenuItemConstructorOptions[] = [
    {
      label: 'Counter',
      submenu: [
        { label: 'Reload', accelerator: 'CmdOrCtrl+R', click: () => actions.reload() },
        { type: 'separator' },
        { label: 'Leave counter mode…', click: () => actions.leaveCounterMode() },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
