import { useRef, useState } from 'react';
import { groupAccountNumber } from '../format';
import { selectContents } from './select-contents';

/** Said under a number that can no longer be paid into (paid, expired or cancelled). */
export const DEAD_NUMBER_WORDS = 'Do not pay into this account';

/**
 * The account number, large and grouped for reading aloud, on one line, with a Copy button while
 * it can be paid into. A closed sale's number is struck through, says not to pay into it, and
 * offers no Copy: the next customer must not photograph it and pay.
 */
export function AccountNumber({
  accountNumber,
  copyable = true,
  closed = false,
}: {
  readonly accountNumber: string;
  readonly copyable?: boolean;
  readonly closed?: boolean;
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
      selectContents(numberRef.current);
      setMessage(
        `Copy is not available here. The number is selected: press Ctrl+C, or read it out: ${grouped}`,
      );
    }
  }

  if (closed) {
    return (
      <div className="account-number-block closed">
        <s className="account-number dead-number" data-testid="account-number">
          {grouped}
        </s>
        <span className="dead-number-words" data-testid="dead-number-words">
          {DEAD_NUMBER_WORDS}
        </span>
      </div>
    );
  }
  return (
    <div className="account-number-block">
      <span className="account-number" data-testid="account-number" ref={numberRef}>
        {grouped}
      </span>
      {copyable && (
        <>
          <button
            type="button"
            className="button secondary copy-button"
            onClick={() => void copy()}
          >
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
