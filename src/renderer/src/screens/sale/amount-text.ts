/**
 * The amount field's text: what the cashier typed is kept as plain Naira ("9999999.99", what is
 * sent) and shown grouped with its sign ("₦9,999,999.99"), so an extra zero is plain to see. The
 * caret is carried across the two by counting the characters that matter (digits and the point).
 */

const MAX_WHOLE_DIGITS = 12;
const NAIRA = '₦';

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
    // Anything else (the sign, commas, spaces, letters) is dropped.
  }
  whole = whole.replace(/^0+(?=\d)/, '');
  if (fraction === null) return whole;
  return `${whole || '0'}.${fraction}`;
}

/** The amount as the field shows it: "" stays empty, "1234.5" is "₦1,234.5". */
export function shownAmount(amount: string): string {
  if (!amount) return '';
  const [whole = '', fraction] = amount.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${NAIRA}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

function counts(char: string): boolean {
  return char === '.' || (char >= '0' && char <= '9');
}

/** How many digits and points stand before `position` in `text`. */
export function keptBefore(text: string, position: number): number {
  let kept = 0;
  for (const char of text.slice(0, position)) if (counts(char)) kept += 1;
  return kept;
}

/** Where the caret goes in `shown` to stand after `kept` digits and points (past the sign). */
export function caretAfter(shown: string, kept: number): number {
  if (kept <= 0) return shown.startsWith(NAIRA) ? NAIRA.length : 0;
  let seen = 0;
  for (let index = 0; index < shown.length; index += 1) {
    if (counts(shown.charAt(index))) seen += 1;
    if (seen === kept) return index + 1;
  }
  return shown.length;
}

/** An edit of the field: its new text and caret, and how the browser says it was made. */
export interface AmountEdit {
  readonly text: string;
  readonly caret: number;
  /** The input event's inputType ("insertText", "deleteContentBackward", …), when known. */
  readonly inputType?: string;
}

/** The amount after an edit of the shown text, and how many digits and points precede the caret. */
export function applyEdit(amount: string, edit: AmountEdit): { amount: string; kept: number } {
  const next = sanitizeAmount(edit.text);
  const kept = keptBefore(edit.text, edit.caret);
  const deleting = edit.inputType?.startsWith('delete') === true;
  if (!deleting || next !== amount || edit.text.length >= shownAmount(amount).length) {
    return { amount: next, kept };
  }
  // Only a comma or the sign went: the cashier meant the digit beside it.
  const at = edit.inputType === 'deleteContentForward' ? kept : kept - 1;
  if (at < 0 || at >= amount.length) return { amount, kept };
  return { amount: sanitizeAmount(amount.slice(0, at) + amount.slice(at + 1)), kept: at };
}
