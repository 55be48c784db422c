import type { WindowApi } from '#shared/bridge/contract';
import { COUNTER_REVOKED, counterToken, forgetToken, keepCounterToken } from './counter-token';
import { createHttpBridge, isDisplayOnly, takeToken, tokenSlot } from './http-bridge';

export { connectionOf, type Connection } from './http-bridge';
export type { ConnectionView } from './event-stream';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the browser shell. */
    readonly till?: WindowApi;
  }
}

/** How this page talks to main, as it starts. */
export interface PageStart {
  /** Null when the page holds no token (nor is it the desktop app). */
  readonly bridge: WindowApi | null;
  /** The page holds a customer display's token: it shows the display only and calls nothing. */
  readonly displayOnly: boolean;
}

/**
 * The desktop shell's preload API, else the browser shell's HTTP bridge with the token of the
 * address (`token=` or `display=`), else the tab's kept token, else this device's counter token.
 */
export function startPage(): PageStart {
  if (window.till) return { bridge: window.till, displayOnly: false };
  const tabToken = takeToken(window.location, window.sessionStorage, window.history);
  const token = tabToken ?? counterToken(window.localStorage);
  if (!token) return { bridge: null, displayOnly: false };
  return {
    bridge: browserBridge(token),
    displayOnly: tabToken !== null && isDisplayOnly(window.sessionStorage),
  };
}

/** The bridge of a counter that has just paired: its token is kept on this device first. */
export function connectCounter(token: string): WindowApi {
  keepCounterToken(token, window.localStorage, window.sessionStorage);
  return browserBridge(token);
}

function browserBridge(token: string): WindowApi {
  return createHttpBridge(token, fetch, undefined, {
    tokenSlot: tokenSlot(window.sessionStorage),
    onRefused: (code) => {
      // A removed counter's token never works again: a reload must not try it.
      if (code === COUNTER_REVOKED) forgetToken(token, window.localStorage, window.sessionStorage);
    },
  });
}
