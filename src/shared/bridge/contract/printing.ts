import { z } from 'zod';
import type { PrintSetupView, PrintersView, ReceiptPrintView } from '../../printing';
import { channel, noInput, ownsSale } from './channel';

/** Receipts on paper: the roll, the saved printer, the printers the computer offers. */
export const printingChannels = {
  /** The receipt paper width and whether a receipt printed here goes straight to the printer. */
  getPrintSetup: channel<PrintSetupView>()(noInput, 'cashier'),
  /**
   * Prints the calling window's receipt (already on the page) to the saved printer without a
   * dialog, in the desktop app; elsewhere answers 'dialog' and the page opens its print dialog.
   */
  printReceipt: channel<ReceiptPrintView>()(
    z
      .object({
        saleId: z.number().int().positive(),
        /** The receipt's height in CSS pixels: the slip is cut to it. */
        contentHeightPx: z.number().positive().max(100_000).optional(),
      })
      .strict(),
    'cashier',
    ownsSale,
  ),
  /** The printers the computer offers, for choosing the receipt printer (desktop app only). */
  listPrinters: channel<PrintersView>()(noInput),
} as const;
