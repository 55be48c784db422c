import { isTrustedRendererUrl, type TrustedOrigins } from '#main/security/trusted-sender';

/** What the till does when a page asks for a new window. */
export type WindowOpenDecision = 'open-display' | 'deny';

/**
 * A page's request for a new window (window.open, a link with a target): only our own renderer
 * asking for the customer display (`#/display`, nothing more in the hash) opens it, in the
 * display's own window made by main; everything else is refused. The till's window never
 * navigates to the display, and no other page gets a window of the app.
 */
export function windowOpenDecision(url: string, trusted: TrustedOrigins): WindowOpenDecision {
  if (!isTrustedRendererUrl(url, trusted)) return 'deny';
  return new URL(url).hash === '#/display' ? 'open-display' : 'deny';
}
