import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  nativeImage,
  screen,
  type BrowserWindowConstructorOptions,
} from 'electron';
import { PRIVATE_FILE_MODE } from '#main/config/private-files';
import { writeFileAtomic } from '#main/secrets/atomic-write';
import { APP_ICON, renderIcon } from '#main/desktop/icon-art';
import { encodePng } from '#main/desktop/png';
import {
  DEFAULT_WINDOW_SIZE,
  restoreWindowState,
  type WindowState,
} from '#main/desktop/window-state';
import type { RendererSource } from './renderer-source';

/** The built renderer: this app's windows load it, and the hub's LAN listener serves it to counters. */
export const rendererDir = join(import.meta.dirname, '../renderer');
export const rendererIndex = join(rendererDir, 'index.html');
const stateFile = () => join(app.getPath('userData'), 'window-state.json');

/**
 * The two preloads (electron.vite.config.ts): the till's window API, and the customer display's,
 * which offers the event subscription alone.
 */
const PRELOADS = {
  till: join(import.meta.dirname, '../preload/index.cjs'),
  display: join(import.meta.dirname, '../preload/display.cjs'),
} as const;

/**
 * Every window of the app is made here, with the same hardened settings written out literally
 * (so that reviewers and Electronegativity see them): isolated, sandboxed, no Node.
 */
function hardenedWindow(
  options: BrowserWindowConstructorOptions,
  preload: keyof typeof PRELOADS,
): BrowserWindow {
  return new BrowserWindow({
    ...options,
    webPreferences: {
      preload: PRELOADS[preload],
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      // Middle-click must not open a link in a new window (auxclick bypasses will-navigate).
      disableBlinkFeatures: 'Auxclick',
    },
  });
}

function load(window: BrowserWindow, source: RendererSource, hash?: string): void {
  const { load: page } = source;
  if (page.kind === 'url') void window.loadURL(hash ? `${page.url}#${hash}` : page.url);
  else void window.loadFile(page.path, hash ? { hash } : {});
}

function readSavedState(): WindowState | null {
  try {
    const saved: unknown = JSON.parse(readFileSync(stateFile(), 'utf8'));
    return restoreWindowState(
      saved,
      screen.getAllDisplays().map((display) => display.workArea),
    );
  } catch {
    return null;
  }
}

/**
 * The till's icon on the window (the taskbar on Windows and Linux, also when run from the source
 * tree); macOS takes it from the app bundle.
 */
function windowIcon(): Electron.NativeImage | undefined {
  if (process.platform === 'darwin') return undefined;
  return nativeImage.createFromBuffer(encodePng(renderIcon(256, APP_ICON)));
}

/** The cashier's window, where it was last time (if that screen is still attached). */
export function createMainWindow(source: RendererSource): BrowserWindow {
  const saved = readSavedState();
  const icon = windowIcon();
  const window = hardenedWindow(
    {
      ...(saved
        ? { x: saved.x, y: saved.y, width: saved.width, height: saved.height }
        : DEFAULT_WINDOW_SIZE),
      minWidth: 800,
      minHeight: 600,
      show: false,
      title: 'Transfer Till',
      ...(icon ? { icon } : {}),
    },
    'till',
  );
  window.once('ready-to-show', () => {
    if (saved?.maximized) window.maximize();
    window.show();
  });
  window.on('close', () => {
    const bounds = window.getNormalBounds();
    try {
      const state = JSON.stringify({ ...bounds, maximized: window.isMaximized() });
      writeFileAtomic(stateFile(), state, PRIVATE_FILE_MODE);
    } catch {
      // Losing the window position is harmless.
    }
  });
  load(window, source);
  return window;
}

/**
 * The counter's only window: the hub's own page over the LAN. It gets no preload at all (a page
 * from another machine must never reach ipcMain); the page talks to the hub over HTTPS like a
 * browser counter. Otherwise the same hardened settings, written out literally.
 */
export function createCounterWindow(title: string): BrowserWindow {
  const icon = windowIcon();
  const window = new BrowserWindow({
    ...DEFAULT_WINDOW_SIZE,
    minWidth: 800,
    minHeight: 600,
    show: false,
    title,
    ...(icon ? { icon } : {}),
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
    },
  });
  window.once('ready-to-show', () => window.show());
  return window;
}

/**
 * The customer-facing display, meant for a second screen turned towards the customer. Its preload
 * offers no call, only the display's events (main refuses its IPC too: ipc.ts).
 */
export function createDisplayWindow(source: RendererSource): BrowserWindow {
  const external = screen
    .getAllDisplays()
    .find((display) => display.id !== screen.getPrimaryDisplay().id);
  const window = hardenedWindow(
    {
      width: 900,
      height: 700,
      ...(external ? { x: external.workArea.x + 40, y: external.workArea.y + 40 } : {}),
      title: 'Transfer Till — customer display',
      autoHideMenuBar: true,
      show: false,
    },
    'display',
  );
  window.once('ready-to-show', () => window.show());
  load(window, source, '/display');
  return window;
}
