/**
 * What the till's Electron process refuses whatever the renderer asks: other windows,
 * navigation away from the app, webviews and permission requests; and the CSP header for the
 * dev server (in production the CSP is also in index.html).
 */
import { app, session } from 'electron';
import { rendererCspHeader } from '#shared/csp';
import { isTrustedRendererUrl, type TrustedOrigins } from '#main/security/trusted-sender';
import { windowOpenDecision } from './window-open-rule';

/**
 * Every web contents the app creates: no navigation off the app, no webview, and no window of a
 * page's own: the till's "Open customer display" opens the display's window made by
 * `openDisplay`; every other new-window request is refused.
 */
export function refuseStrayNavigation(trusted: TrustedOrigins, openDisplay: () => void): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (windowOpenDecision(url, trusted) === 'open-display') openDisplay();
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (!isTrustedRendererUrl(url, trusted)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isTrustedRendererUrl(url, trusted)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

/**
 * After 'ready': no permission is granted, and every response carries the CSP (the development
 * one only when rendererSource says so: never in an installed app).
 */
export function hardenDefaultSession(devCsp: boolean): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
    callback(false),
  );
  // In production the CSP is also in index.html; the header covers the dev server, which
  // needs React's inline refresh preamble and the HMR socket.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    const csp = rendererCspHeader({ dev: devCsp });
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] },
    });
  });
}
