/** Receipt printing and report files, as the renderer and main both see them. */

/** Thermal receipt rolls: the two widths shops in Nigeria buy. */
export const PAPER_WIDTHS_MM = [80, 58] as const;
export type PaperWidthMm = (typeof PAPER_WIDTHS_MM)[number];

/** How this till prints a receipt now, for the cashier's screens (main decides each print). */
export interface PrintSetupView {
  readonly paperWidthMm: PaperWidthMm;
  /** The saved receipt printer, or null: every receipt goes through the print dialog. */
  readonly printerName: string | null;
  /** Whether a receipt asked for here would go straight to that printer, without a dialog. */
  readonly silent: boolean;
}

/** Why a receipt goes through the print dialog instead of straight to the printer. */
export type DialogReason =
  /** The browser shell (or a paired counter): only the desktop app can print without a dialog. */
  | 'not-desktop'
  /** No receipt printer is saved in Settings. */
  | 'no-printer-set'
  /** The saved printer is not among the printers the computer offers now (unplugged, renamed). */
  | 'printer-missing';

/** What printReceipt did: printed it (silent) or left it to the page's print dialog. */
export type ReceiptPrintView =
  | { readonly mode: 'silent'; readonly printerName: string }
  | { readonly mode: 'dialog'; readonly reason: DialogReason };

export interface PrinterView {
  /** The name the operating system knows it by (what is saved in Settings). */
  readonly name: string;
  /** The name people see in print dialogs. */
  readonly displayName: string;
}

export interface PrintersView {
  /** False in the browser shell: it cannot print without the browser's dialog. */
  readonly canPrintSilently: boolean;
  readonly printers: readonly PrinterView[];
}

/** The end-of-day report as a PDF file (made in main, the same in both shells). */
export interface PdfExportView {
  readonly filename: string;
  /** The file's bytes, base64 (the bridge carries JSON). */
  readonly base64: string;
  readonly pages: number;
}
