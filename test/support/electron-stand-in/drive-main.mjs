// @ts-check
/**
 * The child process of test/desktop-build.test.ts: `node --import ./register.mjs drive-main.mjs
 * <out/main/index.js>`. Loads the built main process with the Electron stand-in, waits for the
 * till's window, calls channels through the handlers main registered on ipcMain (the same
 * handler a renderer's invoke reaches: sender check, session, validation, dispatch), opens the
 * customer display as the till's page asks for it, quits the app as a cashier would, and prints
 * one line `DESKTOP-SMOKE <json>` with what it saw.
 */
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
// The same module main gets for 'electron' (hooks.mjs resolves it to this file).
import { app, standIn } from './electron.mjs';

const START_TIMEOUT_MS = 30_000;
const mainFile = process.argv[2];
if (!mainFile) throw new Error('usage: drive-main.mjs <out/main/index.js>');

const timer = setTimeout(() => {
  writeSync(2, `drive-main: the till did not open its window within ${START_TIMEOUT_MS} ms\n`);
  process.exit(2);
}, START_TIMEOUT_MS);

/** @type {Promise<import('./electron.mjs').BrowserWindow>} */
const windowMade = new Promise((resolve) => standIn.events.once('window', resolve));
await import(pathToFileURL(mainFile).href);
const window = await windowMade;
// Main's start after the window is synchronous: let it finish (tray, menu, desktop life).
await new Promise((resolve) => setImmediate(resolve));
clearTimeout(timer);

/** The page the till's window loaded, as its frame's URL. */
const trustedFrame = {
  url: window.loaded?.file ? pathToFileURL(window.loaded.file).href : (window.loaded?.url ?? ''),
  parent: null,
};
/**
 * @param {string} channel @param {unknown} input @param {{ url: string, parent: null }} frame
 * @param {import('./electron.mjs').BrowserWindow} from
 */
function invoke(channel, input, frame = trustedFrame, from = window) {
  const handler = standIn.handlers.get(`till:${channel}`);
  if (!handler) throw new Error(`main registered no handler for till:${channel}`);
  return handler({ sender: from.webContents, senderFrame: frame }, input);
}

/** The CSP header main puts on every response. */
function cspHeader() {
  /** @type {unknown} */
  let answer = null;
  standIn.headersListener?.({ responseHeaders: {} }, (response) => (answer = response));
  const headers = /** @type {{ responseHeaders?: Record<string, string[]> } | null} */ (answer);
  return headers?.responseHeaders?.['Content-Security-Policy']?.[0] ?? null;
}

/**
 * The till's page asks for the customer display (window.open '#/display'); main opens it. Null
 * when no window was made (the test then says so rather than waiting).
 */
async function openDisplay() {
  const made = new Promise((resolve) => standIn.events.once('window', resolve));
  const answer = window.webContents.windowOpenHandler?.({ url: `${trustedFrame.url}#/display` });
  const display = /** @type {import('./electron.mjs').BrowserWindow | null} */ (
    await Promise.race([made, new Promise((resolve) => setTimeout(() => resolve(null), 5_000))])
  );
  if (!display) return null;
  const gotState = () =>
    display.webContents.sent.some(
      ({ message }) => /** @type {{ type?: string }} */ (message).type === 'display-state',
    );
  for (let waited = 0; !gotState() && waited < 5_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const frame = { url: `${trustedFrame.url}#/display`, parent: null };
  return {
    openAnswer: answer,
    webPreferences: display.options['webPreferences'],
    loaded: display.loaded,
    sent: display.webContents.sent.map(({ channel, message }) => ({
      channel,
      type: /** @type {{ type?: string }} */ (message).type,
    })),
    calls: {
      getAppInfo: await invoke('getAppInfo', {}, frame, display),
      getActivity: await invoke('getActivity', {}, frame, display),
    },
  };
}

const report = {
  sandboxEnabled: standIn.sandboxEnabled,
  channels: [...standIn.handlers.keys()],
  window: { webPreferences: window.options['webPreferences'], loaded: window.loaded },
  appInfo: await invoke('getAppInfo', {}),
  status: await invoke('getStatus', {}),
  invalidInput: await invoke('getAppInfo', { unexpected: true }),
  untrustedSender: await invoke(
    'getAppInfo',
    {},
    { url: 'https://example.invalid/', parent: null },
  ),
  // The dev server the test names in ELECTRON_RENDERER_URL: an installed app must not trust it.
  devServerSender: await invoke(
    'getAppInfo',
    {},
    { url: process.env['ELECTRON_RENDERER_URL'] ?? '', parent: null },
  ),
  csp: cspHeader(),
  display: await openDisplay(),
  handlersAfterQuit: /** @type {string[]} */ ([]),
  dialogs: standIn.dialogs,
};

const quit = new Promise((resolve) => standIn.events.once('quit', resolve));
app.quit();
await quit;
report.handlersAfterQuit = [...standIn.handlers.keys()];
writeSync(1, `DESKTOP-SMOKE ${JSON.stringify(report)}\n`);
// Electron ends the process after 'quit'.
process.exit(0);
