// @ts-check
/**
 * A stand-in for the 'electron' module, so that the BUILT main process (out/main/index.js) can
 * start in plain Node (test/desktop-build.test.ts). Electron is the faked edge here: no window is
 * drawn and no message crosses a process; the rest (the core, SQLite, the sandbox provider, the
 * dispatch behind every IPC handler) is the real built code. It offers what main and
 * electron-store touch while a till starts and quits, and nothing more, so a new Electron API
 * used at start fails here loudly (a missing export, or "is not a function"). What main asked of
 * it is kept in `standIn` for the driver (drive-main.mjs) to read.
 *
 * Set TILL_STAND_IN_APP_PATH (the project root: what `electron .` gives as the app path) and
 * TILL_STAND_IN_USER_DATA (a temporary data folder).
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const appPath = process.env['TILL_STAND_IN_APP_PATH'];
const userData = process.env['TILL_STAND_IN_USER_DATA'];
if (!appPath || !userData) {
  throw new Error('electron stand-in: set TILL_STAND_IN_APP_PATH and TILL_STAND_IN_USER_DATA');
}

/** An event whose default a listener may prevent, as Electron's are. */
function preventable() {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

export const standIn = {
  /** ipcMain.handle's handlers, by channel. */
  handlers: new Map(),
  /** Every BrowserWindow made, in order. */
  windows: /** @type {BrowserWindow[]} */ ([]),
  /** Every dialog.showMessageBox call's options. */
  dialogs: /** @type {unknown[]} */ ([]),
  sandboxEnabled: false,
  /** session.defaultSession.webRequest.onHeadersReceived's listener (main's CSP header). */
  headersListener:
    /** @type {((details: object, callback: (response: object) => void) => void) | null} */ (null),
  /** 'window' (a BrowserWindow was made), 'quit' (the app quit). */
  events: new EventEmitter(),
};

class WebContents extends EventEmitter {
  /** @param {number} id */
  constructor(id) {
    super();
    this.id = id;
    this.destroyed = false;
    /** @type {{ channel: string, message: unknown }[]} */
    this.sent = [];
    /** @type {((details: { url: string }) => { action: string }) | null} */
    this.windowOpenHandler = null;
  }
  /** @param {(details: { url: string }) => { action: string }} handler */
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }
  /** @param {string} channel @param {unknown} message */
  send(channel, message) {
    this.sent.push({ channel, message });
  }
  isDestroyed() {
    return this.destroyed;
  }
  getPrintersAsync() {
    return Promise.resolve([]);
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('destroyed');
  }
}

let nextWindowId = 1;

export class BrowserWindow extends EventEmitter {
  /** @param {Record<string, unknown>} options */
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new WebContents(nextWindowId++);
    this.destroyed = false;
    /** @type {{ file?: string, url?: string, hash?: string } | null} */
    this.loaded = null;
    standIn.windows.push(this);
    app.emit('web-contents-created', preventable(), this.webContents);
    standIn.events.emit('window', this);
  }
  /** The page "loads" on the next turn, as Electron's does later: then did-finish-load. */
  finishLoad() {
    setImmediate(() => {
      if (!this.webContents.isDestroyed()) this.webContents.emit('did-finish-load');
    });
    return Promise.resolve();
  }
  /** @param {string} file @param {{ hash?: string }} [options] */
  loadFile(file, options = {}) {
    this.loaded = { file, ...options };
    return this.finishLoad();
  }
  /** @param {string} url */
  loadURL(url) {
    this.loaded = { url };
    return this.finishLoad();
  }
  show() {}
  hide() {}
  focus() {}
  minimize() {}
  maximize() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isMaximized() {
    return false;
  }
  isDestroyed() {
    return this.destroyed;
  }
  getNormalBounds() {
    return { x: 0, y: 0, width: 1366, height: 768 };
  }
  close() {
    if (this.destroyed) return;
    const event = preventable();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroyed = true;
    this.webContents.destroy();
    this.emit('closed');
  }
}

/** Quits as Electron does: before-quit, the windows close, will-quit, quit; each may be stopped. */
class App extends EventEmitter {
  /**
   * As an installed app: main then leaves better-sqlite3 to its default lookup (in a shop, the
   * build electron-builder rebuilt for Electron; here node_modules' build for Node, the runtime
   * of this test). Unpackaged, main would look for .electron-native/ (native-binding.ts), a build
   * for Electron's ABI that Node cannot load.
   */
  isPackaged = true;
  requestSingleInstanceLock() {
    return true;
  }
  enableSandbox() {
    standIn.sandboxEnabled = true;
  }
  whenReady() {
    return Promise.resolve();
  }
  /** @param {string} name */
  getPath(name) {
    if (name === 'userData') return userData;
    throw new Error(`electron stand-in: app.getPath('${name}') is not offered`);
  }
  getAppPath() {
    return appPath;
  }
  getVersion() {
    return JSON.parse(readFileSync(join(appPath ?? '', 'package.json'), 'utf8')).version;
  }
  /** @param {unknown} settings */
  setLoginItemSettings(settings) {
    this.loginItem = settings;
  }
  quit() {
    const before = preventable();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    for (const window of standIn.windows) window.close();
    if (standIn.windows.some((window) => !window.isDestroyed())) return;
    const will = preventable();
    this.emit('will-quit', will);
    if (will.defaultPrevented) return;
    this.emit('quit', preventable(), 0);
    standIn.events.emit('quit');
  }
}

export const app = new App();

class IpcMain extends EventEmitter {
  /** @param {string} channel @param {(...args: unknown[]) => unknown} handler */
  handle(channel, handler) {
    if (standIn.handlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    standIn.handlers.set(channel, handler);
  }
  /** @param {string} channel */
  removeHandler(channel) {
    standIn.handlers.delete(channel);
  }
}

export const ipcMain = new IpcMain();

export const session = {
  defaultSession: {
    setPermissionRequestHandler() {},
    webRequest: {
      /** @param {(details: object, callback: (response: object) => void) => void} listener */
      onHeadersReceived(listener) {
        standIn.headersListener = listener;
      },
    },
    clearStorageData: () => Promise.resolve(),
  },
};

/** No keychain here: main falls back to the file-key secret box, as it does on such a PC. */
export const safeStorage = {
  isEncryptionAvailable: () => false,
  getSelectedStorageBackend: () => 'unknown',
  encryptString() {
    throw new Error('electron stand-in: no keychain');
  },
  decryptString() {
    throw new Error('electron stand-in: no keychain');
  },
};

export class Tray extends EventEmitter {
  destroyed = false;
  setImage() {}
  setToolTip() {}
  setContextMenu() {}
  isDestroyed() {
    return this.destroyed;
  }
  destroy() {
    this.destroyed = true;
  }
}

export const Menu = {
  /** @param {unknown[]} template */
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu() {},
};

export const nativeImage = {
  createEmpty: () => ({ addRepresentation() {} }),
  createFromBuffer: () => ({}),
};

export class Notification {
  static isSupported() {
    return false;
  }
  show() {}
}

let nextBlocker = 1;
export const powerSaveBlocker = {
  start: () => nextBlocker++,
  stop() {},
  isStarted: () => false,
};

export const powerMonitor = new EventEmitter();

export const dialog = {
  /** @param {unknown[]} args */
  showMessageBox(...args) {
    standIn.dialogs.push(args.at(-1));
    return Promise.resolve({ response: 0, checkboxChecked: false });
  },
};

const display = { id: 1, workArea: { x: 0, y: 0, width: 1366, height: 768 } };
export const screen = {
  getAllDisplays: () => [display],
  getPrimaryDisplay: () => display,
};

export const webContents = {
  /** @param {number} id */
  fromId: (id) => standIn.windows.find((window) => window.webContents.id === id)?.webContents,
};

export default {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  powerMonitor,
  powerSaveBlocker,
  safeStorage,
  screen,
  session,
  Tray,
  webContents,
};
