import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BrowserWindow } from 'electron';
import type { TrustedOrigins } from '../security/trusted-sender';

const rendererIndex = join(import.meta.dirname, '../renderer/index.html');

export function trustedOrigins(): TrustedOrigins {
  return {
    rendererFile: pathToFileURL(rendererIndex).href,
    devServerUrl: process.env['ELECTRON_RENDERER_URL'],
  };
}

export function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 760,
    minWidth: 800,
    minHeight: 600,
    show: false,
    title: 'Transfer Till',
    autoHideMenuBar: false,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
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
  window.once('ready-to-show', () => window.show());

  const devUrl = process.env['ELECTRON_RENDERER_URL'];
  if (devUrl) void window.loadURL(devUrl);
  else void window.loadFile(rendererIndex);
  return window;
}
