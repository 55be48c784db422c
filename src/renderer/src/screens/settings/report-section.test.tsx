import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '#support/renderer/render-app';
import { findSection, settingsBridge } from '#support/renderer/settings-bridge';

const FLAG_LABEL = 'Flag a payment into a standing account above (₦)';

describe('End-of-day report settings', () => {
  it('starts off, and saves "this account also receives transfers from other channels"', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('End-of-day report');
    const box = within(section).getByRole<HTMLInputElement>('checkbox', {
      name: 'This account also receives transfers from other channels',
    });
    expect(box.checked).toBe(false);
    await user.click(box);
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: expect.objectContaining({
        report: { otherIncome: true },
        standingAccounts: { flagAboveKobo: 0 },
      }) as unknown,
    });
    expect(box.checked).toBe(true);
  });

  it('saves the standing-account limit typed in Naira as kobo, blank as off', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('End-of-day report');
    const input = within(section).getByLabelText<HTMLInputElement>(FLAG_LABEL);
    expect(input.value).toBe('');
    expect(section.textContent).toContain('Leave blank (or 0) to flag none.');
    await user.type(input, '₦50,000.50');
    expect(section.textContent).toContain('A payment above ₦50,000.50 into a standing account');
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(bridge.updateSettings).toHaveBeenLastCalledWith({
      patch: expect.objectContaining({
        report: { otherIncome: false },
        standingAccounts: { flagAboveKobo: 5_000_050 },
      }) as unknown,
    });
    expect(input.value).toBe('50000.50');

    await user.clear(input);
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(bridge.updateSettings).toHaveBeenLastCalledWith({
      patch: expect.objectContaining({
        report: { otherIncome: false },
        standingAccounts: { flagAboveKobo: 0 },
      }) as unknown,
    });
  });

  it('refuses text that is not an amount, next to the field, and sends nothing', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('End-of-day report');
    const input = within(section).getByLabelText<HTMLInputElement>(FLAG_LABEL);
    await user.type(input, 'fifty');
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    expect(
      await within(section).findByText(
        'Enter an amount in Naira, e.g. 50000 or 2500.50, or leave it blank',
      ),
    ).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(bridge.updateSettings).not.toHaveBeenCalled();
  });
});
