import type { DesktopNotification } from './notifications';
import type { TillSnapshot } from './till-snapshot';

export interface WindowCloseInput {
  /** The app is on its way out: a confirmed quit, an update being installed, the OS shutting down. */
  readonly quitting: boolean;
  /** null while the core starts or cannot be read. */
  readonly till: TillSnapshot | null;
  /** Some Linux desktops show no tray icons: a hidden window could not be found again. */
  readonly trayAvailable: boolean;
  /** The cashier was already told, this run, that the till keeps running in the tray. */
  readonly toldAboutTray: boolean;
}

export type WindowCloseDecision =
  /** Let the window close; with no other window the app quits (through the quit guard). */
  | { readonly kind: 'close' }
  | { readonly kind: 'hide-to-tray'; readonly notice: DesktopNotification | null }
  /** No tray to come back from: keep the window in the taskbar instead. */
  | { readonly kind: 'minimize' };

/** Why the till must keep running, in words, or null when it may stop. */
function reasonToKeepRunning(till: TillSnapshot | null): string | null {
  if (!till) return 'The till is still starting';
  if (till.openSales > 0) {
    return till.openSales === 1
      ? 'A sale is waiting for payment'
      : `${till.openSales} sales are waiting for payment`;
  }
  if (till.standingAccounts > 0) return 'Standing accounts can be paid at any time';
  if (till.connectedCounters > 0) {
    return till.connectedCounters === 1
      ? 'A counter is selling through this hub'
      : `${till.connectedCounters} counters are selling through this hub`;
  }
  return null;
}

/**
 * The cashier closed the main window. While money can still arrive (an open sale, a counter
 * account) the till must keep its listener running, so the window hides to the tray instead.
 */
export function onWindowClose(input: WindowCloseInput): WindowCloseDecision {
  if (input.quitting) return { kind: 'close' };
  const reason = reasonToKeepRunning(input.till);
  if (reason === null) return { kind: 'close' };
  if (!input.trayAvailable) return { kind: 'minimize' };
  return {
    kind: 'hide-to-tray',
    notice: input.toldAboutTray
      ? null
      : {
          title: 'Transfer Till is still running',
          body: `${reason}, so the till keeps listening for payments from the tray. Choose "Quit Transfer Till" there to stop it.`,
          urgent: false,
        },
  };
}
