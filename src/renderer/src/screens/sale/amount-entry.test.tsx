import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { ok, sale } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { applyEdit, caretAfter, shownAmount } from './amount-text';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function amountField(): HTMLInputElement {
  return screen.getByRole('textbox', { name: /Amount/ });
}

/** A media query answer, as a shop PC (mouse and keyboard) or a touchscreen gives it. */
function stubPointer(fine: boolean): void {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: fine && query.includes('pointer: fine'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

describe('the amount as the field shows it', () => {
  it.each([
    ['', ''],
    ['0', '₦0'],
    ['999', '₦999'],
    ['1000', '₦1,000'],
    ['9999999.99', '₦9,999,999.99'],
    ['1234.', '₦1,234.'],
    ['0.5', '₦0.5'],
    ['123456789012', '₦123,456,789,012'],
  ])('shows %j as %j', (amount, shown) => {
    expect(shownAmount(amount)).toBe(shown);
  });

  it('puts the caret after the same digits, past the sign and the commas', () => {
    expect(caretAfter('₦1,234', 0)).toBe(1);
    expect(caretAfter('₦1,234', 1)).toBe(2);
    expect(caretAfter('₦1,234', 2)).toBe(4);
    expect(caretAfter('₦1,234', 99)).toBe(6);
    expect(caretAfter('', 3)).toBe(0);
  });

  it('takes a deleted comma as the digit beside it', () => {
    // "₦1,|234" and Backspace: the comma goes, so the 1 goes.
    expect(
      applyEdit('1234', { text: '₦1234', caret: 2, inputType: 'deleteContentBackward' }),
    ).toEqual({ amount: '234', kept: 0 });
    // "₦1|,234" and Delete: the 2 goes.
    expect(
      applyEdit('1234', { text: '₦1234', caret: 2, inputType: 'deleteContentForward' }),
    ).toEqual({ amount: '134', kept: 1 });
    // A typed comma changes nothing.
    expect(applyEdit('1234', { text: '₦1,2,34', caret: 5, inputType: 'insertText' })).toEqual({
      amount: '1234',
      kept: 2,
    });
  });
});

describe('the amount field', () => {
  it('shows ₦9,999,999.99 in the field as it is typed, and sends the plain amount', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() => ok(sale({ amountKobo: 999_999_999 })));
    renderApp(bridge);
    await user.keyboard('9999999.99');
    expect(amountField().value).toBe('₦9,999,999.99');
    // No second, smaller copy of the amount beside the field.
    expect(screen.queryAllByText('₦9,999,999.99')).toEqual([]);
    await user.keyboard('{Enter}');
    expect(bridge.createSale).toHaveBeenCalledWith({ amount: '9999999.99' });
  });

  it('takes a pasted amount with its sign and commas', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    renderApp(bridge);
    await user.click(amountField());
    await user.paste('₦12,500.50');
    expect(amountField().value).toBe('₦12,500.50');
    await user.keyboard('{Enter}');
    expect(bridge.createSale).toHaveBeenCalledWith({ amount: '12500.50' });
  });

  it('keeps the caret where the cashier put it: typing in the middle, backspace over a comma', async () => {
    const user = userEvent.setup();
    renderApp(createFakeBridge());
    await user.keyboard('1234');
    expect(amountField().value).toBe('₦1,234');
    await user.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}9');
    expect(amountField().value).toBe('₦19,234');
    await user.keyboard('0');
    expect(amountField().value).toBe('₦190,234');
    expect(amountField().selectionStart).toBe(4);
    // "₦190,|234": Backspace over the comma takes the 0 before it.
    await user.keyboard('{ArrowRight}{Backspace}');
    expect(amountField().value).toBe('₦19,234');
    await user.keyboard('{End}{Backspace}{Backspace}');
    expect(amountField().value).toBe('₦192');
  });

  it('keeps the caret at the end after the on-screen keys', async () => {
    const user = userEvent.setup();
    renderApp(createFakeBridge());
    const keypad = screen.getByRole('group', { name: 'Keypad' });
    for (const key of ['1', '2', '3', '4']) {
      await user.click(within(keypad).getByRole('button', { name: key }));
    }
    expect(amountField().value).toBe('₦1,234');
    expect(document.activeElement).toBe(amountField());
    expect(amountField().selectionStart).toBe(6);
  });

  it('drops what is not an amount from a changed value (a paste from elsewhere)', () => {
    renderApp(createFakeBridge());
    fireEvent.change(amountField(), { target: { value: 'NGN 4,500 only' } });
    expect(amountField().value).toBe('₦4,500');
  });
});

describe('the keypad and Tab', () => {
  it('keeps the 16 on-screen keys out of Tab on a shop PC: amount, note, then "New sale"', async () => {
    stubPointer(true);
    const user = userEvent.setup();
    renderApp(createFakeBridge());
    const keys = within(screen.getByRole('group', { name: 'Keypad' })).getAllByRole('button');
    expect(keys).toHaveLength(14);
    for (const key of keys) expect(key.tabIndex).toBe(-1);
    expect(document.activeElement).toBe(amountField());
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /Note/ }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New sale' }));
    // Still pressed by the pointer.
    await user.click(within(screen.getByRole('group', { name: 'Keypad' })).getByText('7'));
    expect(amountField().value).toBe('₦7');
  });

  it('leaves the keys in Tab on a touchscreen, where they are the input', () => {
    stubPointer(false);
    renderApp(createFakeBridge());
    const keys = within(screen.getByRole('group', { name: 'Keypad' })).getAllByRole('button');
    for (const key of keys) expect(key.tabIndex).toBe(0);
  });
});
