import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { channelNames, ipcChannelOf, type Handlers } from '../../shared/bridge/contract';
import { dispatch } from '../bridge/dispatch';
import type { Logger } from '../logging/logger';
import { isTrustedIpcSender, type TrustedOrigins } from '../security/trusted-sender';

/**
 * Registers one ipcMain handler per channel of the table. Each checks that the message comes from
 * our own renderer's main frame before the input is validated and the handler runs.
 */
export function registerIpc(
  handlers: Handlers,
  trusted: TrustedOrigins,
  logger: Logger,
): () => void {
  for (const name of channelNames) {
    ipcMain.handle(ipcChannelOf(name), (event: IpcMainInvokeEvent, input: unknown) => {
      const frame = event.senderFrame;
      const sender = frame ? { url: frame.url, isMainFrame: frame.parent === null } : null;
      if (!isTrustedIpcSender(sender, trusted)) {
        logger.warn({ channel: name, url: frame?.url }, 'IPC refused: untrusted sender');
        return { ok: false, error: { code: 'FORBIDDEN', message: 'Refused: unknown sender.' } };
      }
      return dispatch(handlers, name, input, (error) =>
        logger.error({ err: error, channel: name }, 'bridge handler failed'),
      );
    });
  }
  return () => {
    for (const name of channelNames) ipcMain.removeHandler(ipcChannelOf(name));
  };
}
