/**
 * The till's day on the desktop: the tray icon, closing to the tray, asking before a quit that
 * would leave sales unwatched, keeping the PC awake while a sale waits, start at login and
 * updates. Every decision is a pure function in src/main/desktop; this file feeds them what
 * Electron and the core say, and carries out their answers.
 */
import {
  app,
  dialog,
  Notification,
  powerMonitor,
  powerSaveBlocker,
  type BrowserWindow,
} from 'electron';
import type { BridgeEvent, BridgeEvents } from '#shared/bridge/contract';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import type { Core } from '#main/core/create-core';
import type { DesktopNotification } from '#main/desktop/notifications';
import { createPowerSaveController } from '#main/desktop/power-save';
import { onQuitRequest, quitConfirmed, type QuitDialog } from '#main/desktop/quit-guard';
import { EMPTY_BOOK, noteSale, tillSnapshot, type TillSnapshot } from '#main/desktop/till-snapshot';
import { trayState, type TrayAction } from '#main/desktop/tray-state';
import { updateNotice } from '#main/desktop/updates';
import { onWindowClose } from '#main/desktop/window-close';
import { applyLoginItem } from './login-item';
import { createTillTray } from './tray';
import { createUpdater } from './updater';

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

/** Events after which the till's counts may have changed. */
const REFRESH_ON: ReadonlySet<BridgeEvent['type']> = new Set([
  'sale-changed',
  'alert',
  'callback-health',
  'inflow',
]);
/** Acknowledged alerts and new counter accounts send no event: read again now and then. */
const REFRESH_EVERY_MS = 60_000;
const REFRESH_DEBOUNCE_MS = 250;

export function startDesktopLife(deps: DesktopLifeDeps): DesktopLife {
  const { core } = deps;
  const logger = core.log.logger;
  let till: TillSnapshot | null = null;
  let book = EMPTY_BOOK;
  /** Windows may close for real: a quit is under way. */
  let quitting = false;
  /** "Quit anyway" was answered, or the OS is ending the session. */
  let confirmed = false;
  let asking = false;
  let toldAboutTray = false;
  let closed = false;

  function notify(note: DesktopNotification | null): void {
    if (!note || !Notification.isSupported()) return;
    new Notification({ title: note.title, body: note.body }).show();
  }

  const power = createPowerSaveController(powerSaveBlocker);
  const updater = createUpdater({
    logger,
    onStatus(next, previous) {
      notify(updateNotice(previous, next));
      render();
    },
  });
  const tray = createTillTray((action) => act(action), logger);

  function render(): void {
    if (closed) return;
    tray.update(trayState({ till, update: updater.status() }));
    power.update(till?.openSales ?? 0);
  }

  async function refresh(): Promise<void> {
    try {
      const status = await core.handlers.getStatus({}, IN_PROCESS_OWNER);
      const activity = await core.handlers.getActivity({}, IN_PROCESS_OWNER);
      const connected = core.hub.view().counters.filter((counter) => counter.connected).length;
      till = tillSnapshot(status, activity, book, connected);
    } catch (error) {
      // Switching environments answers BUSY for a moment: keep the last snapshot.
      logger.debug({ err: error }, 'tray: till not readable now');
    }
    render();
  }

  let pending: ReturnType<typeof setTimeout> | null = null;
  function refreshSoon(): void {
    if (pending || closed) return;
    pending = setTimeout(() => {
      pending = null;
      void refresh();
    }, REFRESH_DEBOUNCE_MS);
  }

  const unsubscribe = core.events.subscribe((event) => {
    if (event.type === 'sale-changed') book = noteSale(book, event.payload);
    if (REFRESH_ON.has(event.type)) refreshSoon();
  });
  const every = setInterval(refreshSoon, REFRESH_EVERY_MS);

  let startAtLogin: boolean | null = null;
  async function applySettings(): Promise<void> {
    try {
      const { settings } = await core.handlers.getSettings({}, IN_PROCESS_OWNER);
      if (settings.desktop.startAtLogin !== startAtLogin) {
        startAtLogin = settings.desktop.startAtLogin;
        applyLoginItem(startAtLogin, logger);
      }
      updater.apply(settings);
    } catch (error) {
      logger.error({ err: error }, 'desktop settings could not be applied');
    }
  }
  // The file is written before the store's own copy moves on: read it on the next turn.
  const offSettings = deps.onSettingsFileChanged(() => setImmediate(() => void applySettings()));

  function showMainWindow(): void {
    const window = deps.mainWindow();
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }

  async function ask(question: QuitDialog): Promise<boolean> {
    // The cashier should see the open sales the question is about.
    showMainWindow();
    const window = deps.mainWindow();
    const options = { ...question, buttons: [...question.buttons] };
    const answer =
      window && !window.isDestroyed()
        ? await dialog.showMessageBox(window, options)
        : await dialog.showMessageBox(options);
    return quitConfirmed(answer.response);
  }

  async function installUpdate(): Promise<void> {
    const decision = onQuitRequest({ till, confirmed, purpose: 'update' });
    if (decision.kind === 'ask' && !(await ask(decision.dialog))) return;
    confirmed = true;
    quitting = true;
    // quitAndInstall closes the windows before app's before-quit: they must not hide.
    updater.install();
  }

  function act(action: TrayAction): void {
    switch (action) {
      case 'show':
        showMainWindow();
        return;
      case 'new-sale':
        deps.navigate('sale');
        return;
      case 'activity':
        deps.navigate('activity');
        return;
      case 'check-updates':
        updater.check(true);
        return;
      case 'download-update':
        updater.download();
        return;
      case 'install-update':
        void installUpdate();
        return;
      case 'quit':
        app.quit();
        return;
    }
  }

  function beforeQuit(event: Electron.Event): void {
    if (quitting) return;
    const decision = onQuitRequest({ till, confirmed, purpose: 'quit' });
    if (decision.kind === 'quit') {
      quitting = true;
      return;
    }
    event.preventDefault();
    if (asking) return;
    asking = true;
    void ask(decision.dialog)
      .then((yes) => {
        if (!yes) return;
        confirmed = true;
        app.quit();
      })
      .finally(() => {
        asking = false;
      });
  }
  app.on('before-quit', beforeQuit);

  // The OS shutting down (Linux, macOS) or ending the session (Windows) is not asked about.
  function sessionEnds(): void {
    confirmed = true;
    quitting = true;
  }
  powerMonitor.on('shutdown', sessionEnds);
  // macOS: a click on the Dock icon brings a hidden till back.
  app.on('activate', showMainWindow);

  void applySettings();
  void refresh();

  return {
    watchMainWindow(window) {
      window.on('session-end', sessionEnds);
      window.on('close', (event) => {
        const decision = onWindowClose({
          quitting,
          till,
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
      unsubscribe();
      clearInterval(every);
      if (pending) clearTimeout(pending);
      offSettings();
      updater.close();
      power.release();
      tray.destroy();
      app.off('before-quit', beforeQuit);
      app.off('activate', showMainWindow);
      powerMonitor.off('shutdown', sessionEnds);
    },
  };
}
