import type { BridgeResult, DisplayApi, WindowApi } from '#shared/bridge/contract';
import { windowApiOf } from '#shared/bridge/window-api';
import { channelNames } from '#shared/schema-data';
import { COUNTER_REVOKED, counterToken, forgetToken, keepCounterToken } from './counter-token';
import { createHttpBridge, isDisplayOnly, takeToken, tokenSlot } from './http-bridge';

export { connectionOf, type Connection } from './http-bridge';
export type { ConnectionView } from './event-stream';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the browser shell. */
    readonly till?: WindowApi;
    /** Set by the customer display's Electron preload instead (display.ts): events, no call. */
    readonly tillDisplay?: DisplayApi;
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
 * The desktop shell's preload API (the till's, or the customer display's), else the browser
 * shell's HTTP bridge with the token of the address (`token=` or `display=`), else the tab's kept
 * token, else this device's counter token.
 */
export function startPage(): PageStart {
  if (window.till) return { bridge: window.till, displayOnly: false };
  if (window.tillDisplay) return { bridge: displayBridge(window.tillDisplay), displayOnly: true };
  const tabToken = takeToken(window.location, window.sessionStorage, window.history);
  const token = tabToken ?? counterToken(window.localStorage);
  if (!token) return { bridge: null, displayOnly: false };
  return {
    bridge: browserBridge(token),
    displayOnly: tabToken !== null && isDisplayOnly(window.sessionStorage),
  };
}

const DISPLAY_ONLY_ANSWER: BridgeResult<never> = {
  ok: false,
  error: {
    code: 'DISPLAY_ONLY',
    message: 'The customer display shows sales; it cannot call the till.',
  },
};

/** The desktop customer display's bridge: its events; every call answered here, as main would. */
function displayBridge(display: DisplayApi): WindowApi {
  return windowApiOf(channelNames, () => Promise.resolve(DISPLAY_ONLY_ANSWER), display.subscribe);
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
