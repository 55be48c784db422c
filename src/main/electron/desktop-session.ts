/**
 * A desktop window's session id is `desktop-<webContents id>`: ipc.ts gives it to the window's
 * calls, and the receipt printer reads the window back from it (the page it prints is that
 * window's). Both ends live in the desktop shell, so the rule does too.
 */
const DESKTOP_SESSION_PREFIX = 'desktop-';

/** The session id of a desktop window. */
export function desktopSessionId(contentsId: number): string {
  return `${DESKTOP_SESSION_PREFIX}${contentsId}`;
}

/** The webContents id a desktop session belongs to, or null for any other session. */
export function contentsIdOfSession(sessionId: string): number | null {
  if (!sessionId.startsWith(DESKTOP_SESSION_PREFIX)) return null;
  const digits = sessionId.slice(DESKTOP_SESSION_PREFIX.length);
  if (!/^[1-9]\d{0,9}$/.test(digits)) return null;
  return Number(digits);
}
