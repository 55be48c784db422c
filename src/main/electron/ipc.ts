import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { channelNames, ipcChannelOf, type Handlers } from '#shared/bridge/contract';
import type { SessionRequest } from '#main/auth/sessions';
import { dispatch } from '#main/bridge/dispatch';
import type { CoreAuth } from '#main/core/create-core';
import type { Logger } from '#main/logging/logger';
import { desktopSessionId } from './desktop-session';
import { isTrustedIpcSender, type TrustedOrigins } from '#main/security/trusted-sender';

/** A desktop window is one session: its webContents, for as long as it lives. */
export function desktopSession(contents: Pick<WebContents, 'id'>): SessionRequest {
  return {
    sessionId: desktopSessionId(contents.id),
    via: 'desktop',
    boundTo: 'desktop',
  };
}

/**
 * Registers one ipcMain handler per channel of the table. Each checks that the message comes from
 * our own renderer's main frame in a till window (never the customer display's window, told by
 * `isCustomerDisplay`), resolves the window's session to a caller, then dispatches.
 */
export function registerIpc(
  handlers: Handlers,
  auth: CoreAuth,
  trusted: TrustedOrigins,
  logger: Logger,
  isCustomerDisplay: (contents: WebContents) => boolean,
): () => void {
  const watched = new Set<number>();
  for (const name of channelNames) {
    ipcMain.handle(ipcChannelOf(name), (event: IpcMainInvokeEvent, input: unknown) => {
      const frame = event.senderFrame;
      const sender = frame
        ? {
            url: frame.url,
            isMainFrame: frame.parent === null,
            isCustomerDisplay: isCustomerDisplay(event.sender),
          }
        : null;
      if (!isTrustedIpcSender(sender, trusted)) {
        logger.warn({ channel: name, url: frame?.url }, 'IPC refused: untrusted sender');
        return { ok: false, error: { code: 'FORBIDDEN', message: 'Refused: unknown sender.' } };
      }
      const session = desktopSession(event.sender);
      if (!watched.has(event.sender.id)) {
        watched.add(event.sender.id);
        const id = event.sender.id;
        event.sender.once('destroyed', () => {
          watched.delete(id);
          if (session.sessionId) auth.forget(session.sessionId);
        });
      }
      return dispatch(
        handlers,
        name,
        input,
        (error) => logger.error({ err: error, channel: name }, 'bridge handler failed'),
        auth.callerFor(session, name),
      );
    });
  }
  return () => {
    for (const name of channelNames) ipcMain.removeHandler(ipcChannelOf(name));
  };
}
