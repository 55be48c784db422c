/**
 * How a receipt is printed: straight to the saved printer (the desktop app, Electron's
 * `webContents.print({ silent: true, deviceName })`), or through the page's print dialog. The
 * decision and the paper size are pure; src/main/electron/receipt-printer.ts only carries them out.
 */
import type { CallerVia } from '#shared/bridge/contract';
import type { DialogReason, PaperWidthMm } from '#shared/printing';

/** Electron's page size for print(): microns. */
export interface PageSizeMicrons {
  readonly width: number;
  readonly height: number;
}

export type ReceiptPrintPlan =
  | {
      readonly kind: 'silent';
      readonly deviceName: string;
      readonly pageSize: PageSizeMicrons;
    }
  | { readonly kind: 'dialog'; readonly reason: DialogReason };

export interface ReceiptPrintInput {
  /** Where the request came from: only the desktop window can print without a dialog. */
  readonly via: CallerVia;
  /** The saved printer's system name; '' when none is saved. */
  readonly printerName: string;
  readonly paperWidthMm: PaperWidthMm;
  /**
   * The printers the computer offers now, or null when this shell cannot print silently (the
   * browser shell has no printer access).
   */
  readonly printers: readonly { readonly name: string }[] | null;
  /** The receipt's height on the page in CSS pixels, when the page measured it. */
  readonly contentHeightPx?: number;
}

const MICRONS_PER_MM = 1000;
/** CSS: 96 px to the inch, 25.4 mm to the inch. */
const MM_PER_CSS_PX = 25.4 / 96;
/** Feed past the last line so that the tear-off bar does not cut the footer. */
const FEED_MM = 12;
/** The shortest slip (a short receipt still tears off cleanly) and the longest (a runaway page). */
export const MIN_RECEIPT_MM = 60;
export const MAX_RECEIPT_MM = 600;
/** Without a measurement: an A4's length, which roll printers cut short at the last line. */
export const UNMEASURED_RECEIPT_MM = 297;

/**
 * The page for a receipt: the roll's width, and a length that fits the receipt (a roll printer
 * feeds the whole page length, so an A4-long page would waste a hand's length of paper).
 */
export function receiptPageSize(
  paperWidthMm: PaperWidthMm,
  contentHeightPx?: number,
): PageSizeMicrons {
  const measured =
    contentHeightPx !== undefined && Number.isFinite(contentHeightPx) && contentHeightPx > 0;
  const lengthMm = measured
    ? Math.min(
        MAX_RECEIPT_MM,
        Math.max(MIN_RECEIPT_MM, Math.ceil(contentHeightPx * MM_PER_CSS_PX + FEED_MM)),
      )
    : UNMEASURED_RECEIPT_MM;
  return { width: paperWidthMm * MICRONS_PER_MM, height: lengthMm * MICRONS_PER_MM };
}

export function planReceiptPrint(input: ReceiptPrintInput): ReceiptPrintPlan {
  // A paired counter (a tablet's browser) and the browser shell print with their own dialog.
  if (input.via !== 'desktop' || input.printers === null) {
    return { kind: 'dialog', reason: 'not-desktop' };
  }
  const wanted = input.printerName.trim();
  if (wanted === '') return { kind: 'dialog', reason: 'no-printer-set' };
  // Printing to a printer the system no longer has would fail silently or hit the default
  // printer: the cashier gets the dialog and can see what is there.
  if (!input.printers.some((printer) => printer.name === wanted)) {
    return { kind: 'dialog', reason: 'printer-missing' };
  }
  return {
    kind: 'silent',
    deviceName: wanted,
    pageSize: receiptPageSize(input.paperWidthMm, input.contentHeightPx),
  };
}
