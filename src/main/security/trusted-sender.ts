/**
 * Whether an IPC message or a navigation comes from our own renderer. In production the renderer
 * is our index.html on file:; in development it is the electron-vite dev server. Anything else
 * (another page, a frame, a data: URL, a look-alike origin) is refused. Pure, so it is unit-tested
 * without Electron.
 */
export interface TrustedOrigins {
  /** file: URL of the built renderer's index.html */
  readonly rendererFile: string;
  /** dev server origin when running under electron-vite dev */
  readonly devServerUrl?: string | undefined;
}

export function isTrustedRendererUrl(
  url: string | undefined | null,
  trusted: TrustedOrigins,
): boolean {
  if (!url) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'file:') {
    const expected = new URL(trusted.rendererFile);
    return parsed.pathname === expected.pathname && parsed.host === '';
  }
  if (trusted.devServerUrl) {
    const dev = new URL(trusted.devServerUrl);
    return (
      (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
      parsed.origin === dev.origin &&
      (dev.hostname === 'localhost' || dev.hostname === '127.0.0.1')
    );
  }
  return false;
}

/** What an IPC handler knows of the frame that sent a message. */
export interface IpcSenderFrame {
  readonly url: string;
  /** True for a window's top frame; false for an iframe inside it. */
  readonly isMainFrame: boolean;
  /** The frame is in the customer display's window (whatever page it shows). */
  readonly isCustomerDisplay: boolean;
}

/**
 * The decision every IPC handler makes before it looks at the input: only the top frame of our
 * own renderer in a till window may call the core. A missing frame (destroyed window), any
 * iframe, any other page, and the customer display's window (it calls nothing, as the browser
 * shell's display token; its preload offers no call either) are refused.
 */
export function isTrustedIpcSender(
  frame: IpcSenderFrame | null | undefined,
  trusted: TrustedOrigins,
): boolean {
  return (
    frame !== null &&
    frame !== undefined &&
    frame.isMainFrame &&
    !frame.isCustomerDisplay &&
    isTrustedRendererUrl(frame.url, trusted)
  );
}
