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
