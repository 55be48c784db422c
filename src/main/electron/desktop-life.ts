/**
 * The till's day on the desktop: the tray icon, closing to the tray, asking before a quit that
 * would leave sales unwatched, keeping the PC awake while a sale waits, start at login and
 * updates. Every decision is a pure function in src/main/desktop; this file composes the parts
 * that feed them what Electron and the core say (till-watch.ts, quit-flow.ts,
 * desktop-settings.ts) and carries out their answers.
 */
import { app, Notification, powerMonitor, powerSaveBlocker, type BrowserWindow } from 'electron';
import type { BridgeEvents } from '#shared/bridge/contract';
import type { Core } from '#main/core/create-core';
import type { DesktopNotification } from '#main/desktop/notifications';
import { createPowerSaveController } from '#main/desktop/power-save';
import { trayState, type TrayAction } from '#main/desktop/tray-state';
import { updateNotice } from '#main/desktop/updates';
import { onWindowClose } from '#main/desktop/window-close';
import { followDesktopSettings } from './desktop-settings';
import { startQuitFlow } from './quit-flow';
import { watchTill } from './till-watch';
import { createTillTray } from './tray';
import { createUpdater, type Updater } from './updater';

type Route = BridgeEvents['navigate']['route'];

export interface DesktopLifeDeps {
  readonly core: Core;
  /** The settings file's change signal (electron-store's onDidAnyChange). */
  readonly onSettingsFileChanged: (listener: () => void) => () => void;
  readonly mainWindow: () => BrowserWindow | null;
  /** Shows the main window on a screen. */
  readonly navigate: (route: Route) => void;
}

export interface DesktopLife {
  /** Hooks the main window's close into the tray decision. */
  watchMainWindow(window: BrowserWindow): void;
  showMainWindow(): void;
  checkForUpdates(): void;
  close(): void;
}

/** Carries out what the cashier picked in the tray menu. */
function trayAction(
  action: TrayAction,
  deps: DesktopLifeDeps,
  parts: { showMainWindow(): void; updater: Updater; installUpdate(): void },
): void {
  switch (action) {
    case 'show':
      parts.showMainWindow();
      return;
    case 'new-sale':
      deps.navigate('sale');
      return;
    case 'activity':
      deps.navigate('activity');
      return;
    case 'check-updates':
      parts.updater.check(true);
      return;
    case 'download-update':
      parts.updater.download();
      return;
    case 'install-update':
      parts.installUpdate();
      return;
    case 'quit':
      app.quit();
      return;
  }
}

function showWindow(window: BrowserWindow | null): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

function notify(note: DesktopNotification | null): void {
  if (!note || !Notification.isSupported()) return;
  new Notification({ title: note.title, body: note.body }).show();
}

export function startDesktopLife(deps: DesktopLifeDeps): DesktopLife {
  const { core } = deps;
  const logger = core.log.logger;
  let toldAboutTray = false;
  let closed = false;
  const showMainWindow = (): void => showWindow(deps.mainWindow());

  const power = createPowerSaveController(powerSaveBlocker);
  const updater = createUpdater({
    logger,
    onStatus(next, previous) {
      notify(updateNotice(previous, next));
      render();
    },
  });
  const tray = createTillTray(
    (action) =>
      trayAction(action, deps, {
        showMainWindow,
        updater,
        installUpdate: () => void quit.installUpdate(() => updater.install()),
      }),
    logger,
  );
  const watch = watchTill(core, () => render());

  function render(): void {
    if (closed) return;
    const till = watch.snapshot();
    tray.update(trayState({ till, update: updater.status() }));
    power.update(till?.openSales ?? 0);
  }

  const quit = startQuitFlow({
    till: () => watch.snapshot(),
    mainWindow: deps.mainWindow,
    showMainWindow,
  });
  // The OS shutting down (Linux, macOS) or ending the session (Windows) is not asked about.
  powerMonitor.on('shutdown', quit.sessionEnds);
  // macOS: a click on the Dock icon brings a hidden till back.
  app.on('activate', showMainWindow);

  const offSettings = followDesktopSettings(core, updater, deps.onSettingsFileChanged);
  void watch.refresh();

  return {
    watchMainWindow(window) {
      window.on('session-end', quit.sessionEnds);
      window.on('close', (event) => {
        const decision = onWindowClose({
          quitting: quit.quitting(),
          till: watch.snapshot(),
          trayAvailable: tray.available(),
          toldAboutTray,
        });
        if (decision.kind === 'close') return;
        event.preventDefault();
        if (decision.kind === 'minimize') {
          window.minimize();
          return;
        }
        window.hide();
        if (decision.notice) {
          toldAboutTray = true;
          notify(decision.notice);
        }
      });
    },
    showMainWindow,
    checkForUpdates() {
      if (updater.status().state === 'off') deps.navigate('settings');
      else updater.check(true);
    },
    close() {
      if (closed) return;
      closed = true;
      watch.close();
      offSettings();
      updater.close();
      power.release();
      tray.destroy();
      quit.close();
      app.off('activate', showMainWindow);
      powerMonitor.off('shutdown', quit.sessionEnds);
    },
  };
}
