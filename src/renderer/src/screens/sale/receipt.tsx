import { saleNumberOf } from '#shared/report-words';
import { useRef, useState, type ReactNode } from 'react';
import { createPortal, flushSync } from 'react-dom';
import type { ReceiptView } from '#shared/views';
import { formatNaira } from '#shared/money';
import { useBridge } from '../../bridge-context';
import { cashierMessage } from '../../errors';
import { formatDateTime, groupAccountNumber, SALE_STATE_WORDS } from '../../format';
import { SALE_STATES, type SaleState } from '#shared/sales';

export type PaperWidth = '58' | '80';

function stateWords(state: string): string {
  const known = SALE_STATES.find((candidate): candidate is SaleState => candidate === state);
  return known ? SALE_STATE_WORDS[known] : state;
}

/** The receipt itself: the same markup for the on-screen preview and the printed slip. */
export function Receipt({
  receipt,
  width,
}: {
  readonly receipt: ReceiptView;
  readonly width: PaperWidth;
}) {
  const at = receipt.paidAt ?? receipt.createdAt;
  return (
    <article className={`receipt receipt-${width}`} aria-label="Receipt">
      <h3 className="receipt-shop">{receipt.shopName}</h3>
      {/* The number a cashier reads aloud and Reprint asks for; the reference is below. */}
      <p className="receipt-sale-number">Sale {saleNumberOf(receipt.saleId)}</p>
      <p className="receipt-amount">{formatNaira(receipt.amountKobo)}</p>
      <p className="receipt-state">{stateWords(receipt.state)}</p>
      <dl>
        <dt>Paid to</dt>
        <dd>{receipt.accountNumber ? groupAccountNumber(receipt.accountNumber) : '—'}</dd>
        <dt>Bank</dt>
        <dd>{receipt.bank ?? '—'}</dd>
        {receipt.accountName && (
          <>
            <dt>Name</dt>
            <dd>{receipt.accountName}</dd>
          </>
        )}
        <dt>Reference</dt>
        <dd className="mono">{receipt.reference}</dd>
        <dt>Session ID</dt>
        <dd className="mono">{receipt.sessionId ?? '—'}</dd>
        <dt>Date</dt>
        <dd>{formatDateTime(at, receipt.timeZone)}</dd>
        <dt>Till</dt>
        <dd>
          {receipt.tillId ?? '—'}
          {receipt.cashier ? ` · ${receipt.cashier}` : ''}
        </dd>
      </dl>
      <p className="receipt-footer">Sale #{receipt.saleId} · Thank you</p>
    </article>
  );
}

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
    if (!receipt.ok) return { notice: null, error: cashierMessage(receipt.error) };
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
          error: `${cashierMessage(printed.error)} The print dialog opened instead.`,
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
