import { useRef, useState } from 'react';
import { groupAccountNumber } from '../format';

/** The account number, large and grouped for reading aloud, with a Copy button. */
export function AccountNumber({
  accountNumber,
  copyable = true,
}: {
  readonly accountNumber: string;
  readonly copyable?: boolean;
}) {
  const [message, setMessage] = useState<string | null>(null);
  const numberRef = useRef<HTMLElement>(null);
  const grouped = groupAccountNumber(accountNumber);

  async function copy(): Promise<void> {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(accountNumber);
      setMessage('Copied');
    } catch {
      selectNumber(numberRef.current);
      setMessage(
        `Copy is not available here. The number is selected: press Ctrl+C, or read it out: ${grouped}`,
      );
    }
  }

  return (
    <div className="account-number-block">
      <span className="account-number" data-testid="account-number" ref={numberRef}>
        {grouped}
      </span>
      {copyable && (
        <>
          <button type="button" className="button secondary" onClick={() => void copy()}>
            Copy
          </button>
          <span role="status" className="copy-message">
            {message}
          </span>
        </>
      )}
    </div>
  );
}

function selectNumber(element: HTMLElement | null): void {
  const selection = window.getSelection();
  if (!element || !selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}
