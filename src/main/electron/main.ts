/**
 * The Electron entry: wiring only. It starts either a till or, with `--counter "<pairing link>"`
 * or a saved pairing, a counter of a shop hub (counter-window.ts, no core). For a till the core
 * is built by the composition root; this file adds the single-instance lock, the hardening
 * (hardening.ts), the event forwarding (event-forwarding.ts), the IPC registration and the hub's
 * LAN listener; the tray, closing and quitting, power, start at login and updates are in
 * desktop-life.ts.
 */
import { app, type BrowserWindow } from 'electron';
import { createCore, type Core } from '#main/core/create-core';
import { startDesktopLife, type DesktopLife } from './desktop-life';
import { IPC_EVENT_CHANNEL, type BridgeEvents } from '#shared/bridge/contract';
import { registerIpc } from './ipc';
import { customerDisplayWindow } from './customer-display-window';
import { forwardCoreEvents } from './event-forwarding';
import { hardenDefaultSession, refuseStrayNavigation } from './hardening';
import { sqliteNativeBinding } from './native-binding';
import { openDesktopSecretBox } from './safe-storage-box';
import { openElectronSettings } from './settings-backend';
import { installMenu } from './menu';
import { createElectronReceiptPrinter } from './receipt-printer';
import { rendererSource } from './renderer-source';
import { createMainWindow, rendererDir, rendererIndex } from './window';
import { startLanService, type LanService } from '#main/web/lan-service';
import { counterStart, refuseCounterStart, startCounterMode } from './counter-window';

// Two instances would fight over the webhook port and the database (or, as counters, over one
// window): the second focuses the first.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.enableSandbox();
  // Counter mode is chosen before anything of the till is built: a counter has no core at all.
  const start = counterStart(process.argv);
  if (start.kind === 'counter') startCounterMode(start.mode);
  else if (start.kind === 'refused') refuseCounterStart(start.error, start.savedFileExists);
  else startTill();
}

/** The till (and the shop hub, when its LAN listener is on): the core and its windows. */
function startTill(): void {
  let mainWindow: BrowserWindow | null = null;
  let core: Core | null = null;
  let unregisterIpc: (() => void) | null = null;
  let unsubscribeEvents: (() => void) | null = null;
  let desktop: DesktopLife | null = null;
  let lan: LanService | null = null;
  // The one reading of ELECTRON_RENDERER_URL: an installed app ignores it (renderer-source.ts).
  const renderer = rendererSource({
    isPackaged: app.isPackaged,
    rendererUrl: process.env['ELECTRON_RENDERER_URL'],
    rendererIndex,
  });

  app.on('second-instance', () => {
    // Also how a till hidden to the tray comes back where the desktop shows no tray icons.
    if (desktop) desktop.showMainWindow();
    else if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });

  /** The customer display in its own window (one at most), from the menu or the till's link. */
  const display = customerDisplayWindow(renderer);
  const openCustomerDisplay = (): void => {
    if (core) display.open(core);
  };

  refuseStrayNavigation(renderer.trusted, openCustomerDisplay);

  void app.whenReady().then(async () => {
    hardenDefaultSession(renderer.devCsp);
    const dataDir = app.getPath('userData');
    const binding = sqliteNativeBinding();
    const settingsFile = openElectronSettings();
    core = await createCore({
      dataDir,
      shell: 'electron',
      version: app.getVersion(),
      settings: settingsFile,
      // safeStorage is usable only after 'ready'.
      secretBox: openDesktopSecretBox(dataDir),
      ...(binding ? { sqliteNativeBinding: binding } : {}),
      receiptPrinter: createElectronReceiptPrinter(),
    });
    unregisterIpc = registerIpc(
      core.handlers,
      core.auth,
      renderer.trusted,
      core.log.logger,
      // Main refuses the customer display whatever its preload offers.
      display.isDisplay,
    );
    // The shop hub: the listener runs only while Settings say so (the Counters screen turns it
    // on and off through the same service); on every address, as counters are other machines.
    try {
      lan = await startLanService({ core, rendererDir, dataDir });
    } catch (error) {
      core.log.logger.error({ err: error }, 'shop hub unavailable: the LAN listener did not start');
    }
    mainWindow = createMainWindow(renderer);
    unsubscribeEvents = forwardCoreEvents(core, {
      till: () => [mainWindow],
      display: display.window,
    });
    const navigate = (route: BridgeEvents['navigate']['route']): void => {
      mainWindow?.webContents.send(IPC_EVENT_CHANNEL, { type: 'navigate', payload: { route } });
      desktop?.showMainWindow();
    };
    desktop = startDesktopLife({
      core,
      onSettingsFileChanged: (listener) => settingsFile.backend.onDidAnyChange(listener),
      mainWindow: () => mainWindow,
      navigate,
    });
    desktop.watchMainWindow(mainWindow);
    installMenu({
      checkForUpdates: () => desktop?.checkForUpdates(),
      navigate,
      openCustomerDisplay,
      // The renderer's print styles decide what goes on paper (receipt or report).
      print: () => mainWindow?.webContents.print({ silent: false, printBackground: true }),
    });
    mainWindow.on('closed', () => {
      mainWindow = null;
      display.window()?.close();
    });
  });

  // The main window closes for real only when no money can still arrive (onWindowClose);
  // otherwise it hides to the tray and this does not fire. The quit still meets the quit guard.
  app.on('window-all-closed', () => app.quit());

  let quitting = false;
  app.on('will-quit', (event) => {
    if (quitting || !core) return;
    // Close the listener, tunnel and database cleanly before the process exits.
    event.preventDefault();
    quitting = true;
    unsubscribeEvents?.();
    desktop?.close();
    unregisterIpc?.();
    // Counters' streams end before the core (and its database) closes under them.
    const closing = core;
    void (lan?.close() ?? Promise.resolve())
      .catch((error: unknown) =>
        closing.log.logger.error({ err: error }, 'LAN listener close failed'),
      )
      .then(() => closing.close())
      .finally(() => app.quit());
  });
}
