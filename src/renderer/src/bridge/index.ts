import type { WindowApi } from '../../../shared/bridge/contract';
import { createHttpBridge, takeToken } from './http-bridge';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the browser shell. */
    readonly till?: WindowApi;
  }
}

/** The desktop shell's preload API, else the browser shell's HTTP bridge, else null. */
export function resolveBridge(): WindowApi | null {
  if (window.till) return window.till;
  const token = takeToken(window.location, window.sessionStorage, window.history);
  return token ? createHttpBridge(token) : null;
}
