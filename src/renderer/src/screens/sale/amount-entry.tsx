import {
  useEffect,
  useEffectEvent,
  useId,
  useRef,
  useState,
  type FormEvent,
  type RefObject,
} from 'react';
import { formatNaira, nairaToKobo } from '#shared/money';
import { useServiceLost } from '../../server-time';
import type { SetSale } from './current-sale';
import { useNewSale } from './use-sale';

/** In the order a 4-column keypad shows them, ⌫ and C in the last column. */
const KEY_ROWS = [
  ['7', '8', '9'],
  ['4', '5', '6'],
  ['1', '2', '3'],
  ['0', '00', '.'],
] as const;
const MAX_WHOLE_DIGITS = 12;

/** Applies what the cashier typed, keeping a plausible Naira amount ("1500", "1500.5"). */
export function sanitizeAmount(text: string): string {
  let whole = '';
  let fraction: string | null = null;
  for (const char of text) {
    if (char === '.' && fraction === null) fraction = '';
    else if (/\d/.test(char)) {
      if (fraction === null) {
        if (whole.length < MAX_WHOLE_DIGITS) whole += char;
      } else if (fraction.length < 2) fraction += char;
    }
    // Anything else (commas, spaces, letters) is dropped.
  }
  whole = whole.replace(/^0+(?=\d)/, '');
  if (fraction === null) return whole;
  return `${whole || '0'}.${fraction}`;
}

function preview(amount: string): string | null {
  if (!amount) return null;
  try {
    const kobo = nairaToKobo(amount.endsWith('.') ? amount.slice(0, -1) : amount);
    return kobo > 0 ? formatNaira(kobo) : null;
  } catch {
    return null;
  }
}

function isTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

export function AmountEntry({
  onCreated,
  initialAmount = '',
}: {
  readonly onCreated: SetSale;
  /** What the cashier already typed on the finished sale's screen. */
  readonly initialAmount?: string;
}) {
  const [amount, setAmount] = useState(() => sanitizeAmount(initialAmount));
  const lost = useServiceLost();
  const [note, setNote] = useState('');
  const { busy, error, showError, create } = useNewSale(onCreated);
  const inputRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const keypadRef = useRef<HTMLDivElement>(null);
  const errorId = useId();
  const previewId = useId();

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  const keys: AmountKeys = {
    type(key) {
      showError(null);
      setAmount((current) => sanitizeAmount(current + key));
    },
    backspace() {
      showError(null);
      setAmount((current) => current.slice(0, -1));
    },
    clear() {
      showError(null);
      setAmount('');
    },
  };
  usePageKeys(keys, keypadRef, () => formRef.current?.requestSubmit());

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (busy || lost) return;
    const text = amount.trim();
    if (!text) {
      showError('Enter an amount');
      inputRef.current?.focus();
      return;
    }
    const answer = await create(text, note);
    if (answer && !answer.ok) inputRef.current?.focus();
  }

  const shown = preview(amount);
  return (
    <form
      ref={formRef}
      className="amount-entry"
      onSubmit={(event) => void submit(event)}
      aria-busy={busy}
      noValidate
    >
      <div className="entry-fields">
        <h2>New sale</h2>
        <label className="amount-label">
          <span>Amount (₦)</span>
          <input
            ref={inputRef}
            className="amount-input"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            placeholder="0.00"
            aria-invalid={error !== null}
            aria-describedby={error ? `${previewId} ${errorId}` : previewId}
            onChange={(event) => {
              showError(null);
              setAmount(sanitizeAmount(event.target.value));
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                keys.clear();
              }
            }}
          />
        </label>
        <p id={previewId} className="amount-preview">
          {shown ?? '\u00a0'}
        </p>
        {error && (
          <p id={errorId} className="field-error" role="alert">
            {error}
          </p>
        )}

        <label className="note-label">
          <span>Note (optional)</span>
          <input
            type="text"
            maxLength={200}
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
        </label>

        <button type="submit" className="button primary big new-sale" disabled={busy || lost}>
          New sale
        </button>
        {lost && (
          <p className="field-error" role="status">
            New sales wait until the till service is back.
          </p>
        )}
        {busy && (
          <p role="status" className="progress-text">
            Creating the account…
          </p>
        )}
      </div>
      <Keypad keys={keys} keypadRef={keypadRef} />
    </form>
  );
}

interface AmountKeys {
  readonly type: (key: string) => void;
  readonly backspace: () => void;
  readonly clear: () => void;
}

/** Keys pressed while focus is on the page or the keypad (not in a text field) still work. */
function usePageKeys(
  keys: AmountKeys,
  keypadRef: RefObject<HTMLDivElement | null>,
  submit: () => void,
): void {
  const onPageKey = useEffectEvent((event: KeyboardEvent): void => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const onPage = target === document.body || target === document.documentElement;
    const onKeypad = target instanceof Node && keypadRef.current?.contains(target) === true;
    if (!onPage && !onKeypad) return;
    if (isTextField(target)) return;
    if (/^[0-9.]$/.test(event.key)) keys.type(event.key);
    else if (event.key === 'Backspace') keys.backspace();
    else if (event.key === 'Escape') keys.clear();
    else if (event.key === 'Enter') submit();
    else return;
    event.preventDefault();
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => onPageKey(event);
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

function Keypad({
  keys,
  keypadRef,
}: {
  readonly keys: AmountKeys;
  readonly keypadRef: RefObject<HTMLDivElement | null>;
}) {
  return (
    <div className="keypad" ref={keypadRef} role="group" aria-label="Keypad">
      {KEY_ROWS.flat().map((key) => (
        <button
          key={key}
          type="button"
          className="key"
          // Keep the focus in the amount field when the keypad is used with a mouse.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => keys.type(key)}
        >
          {key}
        </button>
      ))}
      <button
        type="button"
        className="key key-action key-delete"
        aria-label="Delete last digit"
        onMouseDown={(event) => event.preventDefault()}
        onClick={keys.backspace}
      >
        ⌫
      </button>
      <button
        type="button"
        className="key key-action key-clear"
        aria-label="Clear amount"
        onMouseDown={(event) => event.preventDefault()}
        onClick={keys.clear}
      >
        C
      </button>
    </div>
  );
}
