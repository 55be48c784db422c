import type { PrinterView } from '#shared/printing';
import { AppError } from '#shared/errors';
import type { ReceiptPrintPlan } from './print-plan';

export type SilentPrintPlan = Extract<ReceiptPrintPlan, { kind: 'silent' }>;

/**
 * The desktop app's printer access (Electron's webContents.print and getPrintersAsync). Both act
 * through the window that asked: its page is what gets printed.
 */
export interface ReceiptPrinter {
  printers(sessionId: string): Promise<readonly PrinterView[]>;
  /** Rejects with a PrintError when the printer did not take the job. */
  print(sessionId: string, plan: SilentPrintPlan): Promise<void>;
}

/** The saved printer did not print; the page falls back to its print dialog. */
export class PrintError extends AppError<'PRINT_FAILED'> {
  constructor(message: string) {
    super('PRINT_FAILED', message);
    this.name = 'PrintError';
  }
}
