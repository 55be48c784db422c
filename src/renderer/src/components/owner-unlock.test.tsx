import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { cashierSession, fail, ok } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';

describe('owner unlock: a wrong PIN', () => {
  it('is said after the Unlock button (the field and the button stay put) and describes the field', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.getSession.mockImplementation(() => ok(cashierSession()));
    bridge.unlockOwner.mockImplementation(() =>
      fail('WRONG_PIN', 'Wrong PIN. 4 more wrong PINs lock PIN entry for a while.', 'pin'),
    );
    renderApp(bridge, '#/sale');
    await user.click(await screen.findByRole('button', { name: 'Owner unlock' }));
    const field = screen.getByLabelText('Owner PIN');
    const unlock = screen.getByRole('button', { name: 'Unlock' });
    await user.type(field, '1111');
    await user.click(unlock);
    const problem = await screen.findByRole('alert');
    expect(problem.textContent).toBe('Wrong PIN. 4 more wrong PINs lock PIN entry for a while.');
    expect(problem.className).toBe('pin-problem');
    // Nothing between the field and its button: the message comes after both.
    expect(unlock.compareDocumentPosition(problem) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(field.parentElement?.querySelector('.field-error')).toBeNull();
    expect(field.getAttribute('aria-describedby')).toBe(problem.id);
    expect(field.getAttribute('aria-invalid')).toBe('true');
  });
});
