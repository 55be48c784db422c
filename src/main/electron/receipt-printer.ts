import { webContents, type WebContents } from 'electron';
import { PrintError, type ReceiptPrinter } from '#main/printing/receipt-printer';
import { contentsIdOfSession } from './desktop-session';

/** The window behind a desktop session (its page holds the receipt to print). */
function windowOf(sessionId: string): WebContents {
  const id = contentsIdOfSession(sessionId);
  const contents = id === null ? undefined : webContents.fromId(id);
  if (!contents || contents.isDestroyed()) {
    throw new PrintError('The window that asked to print has closed.');
  }
  return contents;
}

/**
 * Silent receipt printing for the desktop app: the plan (printer, paper size) is decided in
 * printing/print-plan.ts; this only hands it to Chromium's printing.
 */
export function createElectronReceiptPrinter(): ReceiptPrinter {
  return {
    async printers(sessionId) {
      const found = await windowOf(sessionId).getPrintersAsync();
      return found.map((printer) => ({ name: printer.name, displayName: printer.displayName }));
    },
    print(sessionId, plan) {
      const contents = windowOf(sessionId);
      return new Promise<void>((resolve, reject) => {
        contents.print(
          {
            silent: true,
            deviceName: plan.deviceName,
            pageSize: plan.pageSize,
            margins: { marginType: 'none' },
            printBackground: false,
          },
          (success, failureReason) => {
            if (success) resolve();
            else {
              reject(
                new PrintError(
                  `The receipt printer ${plan.deviceName} did not print (${failureReason || 'no reason given'}). Check that it is on and has paper.`,
                ),
              );
            }
          },
        );
      });
    },
  };
}
