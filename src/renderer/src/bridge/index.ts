import type { WindowApi } from '../../../shared/bridge/contract';
import { createHttpBridge, takeToken, tokenSlot } from './http-bridge';

export { connectionOf, type Connection } from './http-bridge';
export type { ConnectionView } from './event-stream';

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
  return token
    ? createHttpBridge(token, fetch, undefined, { tokenSlot: tokenSlot(window.sessionStorage) })
    : null;
}
