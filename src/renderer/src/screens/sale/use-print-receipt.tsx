import { useRef, useState, type ReactNode } from 'react';
import { createPortal, flushSync } from 'react-dom';
import type { ReceiptView } from '#shared/views';
import { useBridge } from '../../bridge-context';
import { failureOf } from '../../hooks/use-bridge-call';
import { Receipt, type PaperWidth } from './receipt';

/** What a print did, in words for the cashier (both null: the print dialog is open). */
export interface PrintOutcome {
  readonly notice: string | null;
  readonly error: string | null;
}

/**
 * The receipt's height as it prints: the print-only copy is hidden on screen, so it is laid out
 * off-screen for a moment (the desktop app cuts the paper to it).
 */
function measure(sheet: HTMLElement | null): number | undefined {
  if (!sheet) return undefined;
  const { style } = sheet;
  style.display = 'block';
  style.position = 'absolute';
  style.left = '-10000px';
  style.visibility = 'hidden';
  const height = sheet.getBoundingClientRect().height;
  for (const property of ['display', 'position', 'left', 'visibility']) {
    style.removeProperty(property);
  }
  return height > 0 ? Math.ceil(height) : undefined;
}

/**
 * Prints one sale's receipt alone: a copy is portalled next to #root, and while the body carries
 * 'printing-receipt' the print CSS hides everything else. Main decides how (printReceipt): in
 * the desktop app with a saved printer it prints without a dialog; otherwise, or when that
 * printer fails, the page opens the print dialog. The paper width is the one saved in Settings.
 */
export function usePrintReceipt(): {
  readonly print: (saleId: number) => Promise<PrintOutcome>;
  /** The receipt last printed (for an on-screen preview), and its width. */
  readonly receipt: ReceiptView | null;
  readonly width: PaperWidth;
  readonly portal: ReactNode;
} {
  const bridge = useBridge();
  const [shown, setShown] = useState<{
    readonly receipt: ReceiptView;
    readonly width: PaperWidth;
  } | null>(null);
  const sheet = useRef<HTMLDivElement>(null);

  async function print(saleId: number): Promise<PrintOutcome> {
    const [receipt, setup] = await Promise.all([
      bridge.getReceipt({ saleId }),
      bridge.getPrintSetup({}),
    ]);
    if (!receipt.ok) return { notice: null, error: failureOf(receipt.error).words };
    const width: PaperWidth = setup.ok && setup.value.paperWidthMm === 58 ? '58' : '80';
    // On the page before anything prints it.
    flushSync(() => setShown({ receipt: receipt.value, width }));
    const contentHeightPx = measure(sheet.current);
    document.body.classList.add('printing-receipt');
    const printed = await bridge.printReceipt({
      saleId,
      ...(contentHeightPx === undefined ? {} : { contentHeightPx }),
    });
    if (printed.ok && printed.value.mode === 'silent') {
      document.body.classList.remove('printing-receipt');
      return { notice: `Receipt printed on ${printed.value.printerName}.`, error: null };
    }
    const done = () => {
      document.body.classList.remove('printing-receipt');
      window.removeEventListener('afterprint', done);
    };
    window.addEventListener('afterprint', done);
    window.print();
    return printed.ok
      ? { notice: null, error: null }
      : {
          notice: null,
          error: `${failureOf(printed.error).words} The print dialog opened instead.`,
        };
  }

  return {
    print,
    receipt: shown?.receipt ?? null,
    width: shown?.width ?? '80',
    portal: shown
      ? createPortal(
          <div ref={sheet} className="print-only receipt-sheet" aria-hidden="true">
            <Receipt receipt={shown.receipt} width={shown.width} />
          </div>,
          document.body,
        )
      : null,
  };
}
