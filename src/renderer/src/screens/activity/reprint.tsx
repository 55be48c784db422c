import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { SaleView } from '#shared/sales';
import { usePrintReceipt } from '../sale/use-print-receipt';

/** One receipt printer for the Activity screen: a row's button and the sale-number form share it. */
export interface Reprint {
  readonly print: (saleId: number) => Promise<void>;
  /** The sale being printed now, or null. */
  readonly busy: number | null;
  readonly notice: string | null;
  readonly error: string | null;
  readonly portal: ReactNode;
}

/**
 * Reprints any past receipt: the same path as the sale screen's "Print receipt" (straight to the
 * saved printer in the desktop app, the print dialog in a browser).
 */
export function useReprint(): Reprint {
  const printer = usePrintReceipt();
  const [busy, setBusy] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function print(saleId: number): Promise<void> {
    if (busy !== null) return;
    setBusy(saleId);
    setNotice(null);
    setError(null);
    const outcome = await printer.print(saleId);
    setBusy(null);
    setNotice(outcome.notice);
    setError(outcome.error);
  }

  return { print, busy, notice, error, portal: printer.portal };
}

/** A receipt exists for a sale the customer paid (on time or late). */
function hasReceipt(sale: SaleView): boolean {
  return sale.state === 'paid' || sale.state === 'paid_late';
}

export function ReprintButton({
  sale,
  reprint,
}: {
  readonly sale: SaleView;
  readonly reprint: Reprint;
}) {
  if (!hasReceipt(sale)) return null;
  return (
    <button
      type="button"
      className="button secondary small"
      aria-label={`Reprint receipt of sale #${sale.id}`}
      disabled={reprint.busy !== null}
      onClick={() => void reprint.print(sale.id)}
    >
      Reprint
    </button>
  );
}

/** Any earlier receipt, by the sale number printed on it ("Sale #12"). */
export function ReprintReceipt({ reprint }: { readonly reprint: Reprint }) {
  const id = useId();
  const [saleNumber, setSaleNumber] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent): void {
    event.preventDefault();
    const digits = saleNumber.trim().replace(/^#/, '');
    if (!/^\d{1,9}$/.test(digits) || Number(digits) === 0) {
      setProblem('Enter the sale number from the receipt, e.g. 12');
      return;
    }
    setProblem(null);
    void reprint.print(Number(digits));
  }

  const error = problem ?? reprint.error;
  return (
    <section aria-labelledby={`${id}-heading`} className="panel reprint no-print">
      <h3 id={`${id}-heading`}>Reprint a receipt</h3>
      <form className="search-form" onSubmit={submit} noValidate>
        <label className="inline-label">
          <span>Sale number</span>
          <input
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={saleNumber}
            aria-invalid={problem !== null}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => setSaleNumber(event.target.value)}
          />
        </label>
        <button type="submit" className="button secondary" disabled={reprint.busy !== null}>
          Reprint receipt
        </button>
      </form>
      {error && (
        <p id={`${id}-error`} className="error" role="alert">
          {error}
        </p>
      )}
      {reprint.notice && (
        <p className="notice" role="status">
          {reprint.notice}
        </p>
      )}
      {reprint.busy !== null && <p role="status">Printing the receipt of sale #{reprint.busy}…</p>}
      {reprint.portal}
    </section>
  );
}
