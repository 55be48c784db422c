import type { Caller, HandlersOf, printingChannels } from '#shared/bridge/contract';
import { planReceiptPrint } from './print-plan';
import type { ReceiptPrinter } from './receipt-printer';
import type { Logger } from '#main/logging/logger';
import type { SettingsStore } from '#main/settings/settings-store';

export interface PrintingHandlerDeps {
  readonly settings: SettingsStore;
  /** Only in the desktop app; the browser shell prints with the browser's dialog. */
  readonly printer?: ReceiptPrinter;
  readonly logger: Logger;
}

export function printingHandlers(deps: PrintingHandlerDeps): HandlersOf<typeof printingChannels> {
  const { settings, printer } = deps;

  function canPrintSilently(caller: Caller): boolean {
    return printer !== undefined && caller.via === 'desktop';
  }

  return {
    getPrintSetup: (_input, caller) => {
      const { receiptPrinter, paperWidthMm } = settings.get().printing;
      return {
        paperWidthMm,
        printerName: receiptPrinter === '' ? null : receiptPrinter,
        silent: canPrintSilently(caller) && receiptPrinter !== '',
      };
    },
    printReceipt: async ({ saleId, contentHeightPx }, caller) => {
      const { receiptPrinter, paperWidthMm } = settings.get().printing;
      // The printer list only when it decides something (asking the system takes a moment).
      const printers =
        !printer || caller.via !== 'desktop'
          ? null
          : receiptPrinter === ''
            ? []
            : await printer.printers(caller.sessionId);
      const plan = planReceiptPrint({
        via: caller.via,
        printerName: receiptPrinter,
        paperWidthMm,
        printers,
        ...(contentHeightPx === undefined ? {} : { contentHeightPx }),
      });
      if (plan.kind === 'dialog' || !printer) {
        return { mode: 'dialog', reason: plan.kind === 'dialog' ? plan.reason : 'not-desktop' };
      }
      await printer.print(caller.sessionId, plan);
      deps.logger.info({ saleId, printer: plan.deviceName }, 'receipt printed without a dialog');
      return { mode: 'silent', printerName: plan.deviceName };
    },
    listPrinters: async (_input, caller) => {
      if (!printer || !canPrintSilently(caller)) return { canPrintSilently: false, printers: [] };
      return { canPrintSilently: true, printers: await printer.printers(caller.sessionId) };
    },
  };
}
