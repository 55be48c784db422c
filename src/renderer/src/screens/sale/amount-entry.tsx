import {
  useEffect,
  useEffectEvent,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ChangeEvent,
  type FormEvent,
  type RefObject,
} from 'react';
import { useServiceLost } from '../../server-time';
import type { SetSale } from './current-sale';
import { applyEdit, caretAfter, sanitizeAmount, shownAmount } from './amount-text';
import { useNewSale } from './use-sale';

/** In the order a 4-column keypad shows them, ⌫ and C in the last column. */
const KEY_ROWS = [
  ['7', '8', '9'],
  ['4', '5', '6'],
  ['1', '2', '3'],
  ['0', '00', '.'],
] as const;

/** On a shop PC the keyboard is the input: the on-screen keys are for a mouse, not for Tab. */
const KEYBOARD_TILL = '(hover: hover) and (pointer: fine)';

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
  const lost = useServiceLost();
  const [note, setNote] = useState('');
  const { busy, error, showError, create } = useNewSale(onCreated);
  const inputRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const keypadRef = useRef<HTMLDivElement>(null);
  const errorId = useId();
  const { amount, keys, edit } = useAmount(initialAmount, inputRef, () => showError(null));

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

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
            value={shownAmount(amount)}
            placeholder="₦0.00"
            aria-invalid={error !== null}
            aria-describedby={error ? errorId : undefined}
            onChange={edit}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                keys.clear();
              }
            }}
          />
        </label>
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

/** The amount typed so far, changed by the keys (page or keypad) and by edits of the field. */
function useAmount(
  initialAmount: string,
  inputRef: RefObject<HTMLInputElement | null>,
  clearError: () => void,
) {
  const [amount, setAmount] = useState(() => sanitizeAmount(initialAmount));
  const caret = useAmountCaret(inputRef, amount);
  const keys: AmountKeys = {
    type(key) {
      clearError();
      caret.toEnd();
      setAmount((current) => sanitizeAmount(current + key));
    },
    backspace() {
      clearError();
      caret.toEnd();
      setAmount((current) => current.slice(0, -1));
    },
    clear() {
      clearError();
      setAmount('');
    },
  };

  function edit(event: ChangeEvent<HTMLInputElement>): void {
    clearError();
    const field = event.target;
    const native = event.nativeEvent;
    const next = applyEdit(amount, {
      text: field.value,
      caret: field.selectionStart ?? field.value.length,
      ...(native instanceof InputEvent ? { inputType: native.inputType } : {}),
    });
    caret.after(next.kept);
    setAmount(next.amount);
  }

  return { amount, keys, edit };
}

/**
 * The field shows the amount grouped, so after each edit the caret is put back after the same
 * digits it followed (or at the end, after an on-screen key).
 */
function useAmountCaret(inputRef: RefObject<HTMLInputElement | null>, amount: string) {
  const wanted = useRef<number | null>(null);
  useLayoutEffect(() => {
    const field = inputRef.current;
    const kept = wanted.current;
    wanted.current = null;
    if (!field || kept === null || document.activeElement !== field) return;
    const at = caretAfter(field.value, kept);
    field.setSelectionRange(at, at);
  }, [inputRef, amount]);
  return {
    after(kept: number): void {
      wanted.current = kept;
    },
    toEnd(): void {
      wanted.current = Number.POSITIVE_INFINITY;
    },
  };
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

function subscribeKeyboardTill(onChange: () => void): () => void {
  const query = window.matchMedia?.(KEYBOARD_TILL);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** A mouse and keyboard (the shop PC), not a finger: the keypad then stays out of Tab's way. */
function useKeyboardTill(): boolean {
  return useSyncExternalStore(
    subscribeKeyboardTill,
    () => window.matchMedia?.(KEYBOARD_TILL).matches === true,
  );
}

function Keypad({
  keys,
  keypadRef,
}: {
  readonly keys: AmountKeys;
  readonly keypadRef: RefObject<HTMLDivElement | null>;
}) {
  // Still pressed by pointer or finger; Tab goes from the amount to the note and "New sale".
  const tabIndex = useKeyboardTill() ? -1 : undefined;
  return (
    <div className="keypad" ref={keypadRef} role="group" aria-label="Keypad">
      {KEY_ROWS.flat().map((key) => (
        <button
          key={key}
          type="button"
          className="key"
          tabIndex={tabIndex}
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
        tabIndex={tabIndex}
        aria-label="Delete last digit"
        onMouseDown={(event) => event.preventDefault()}
        onClick={keys.backspace}
      >
        ⌫
      </button>
      <button
        type="button"
        className="key key-action key-clear"
        tabIndex={tabIndex}
        aria-label="Clear amount"
        onMouseDown={(event) => event.preventDefault()}
        onClick={keys.clear}
      >
        C
      </button>
    </div>
  );
}
