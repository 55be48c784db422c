import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '#support/renderer/render-app';
import { findSection, settingsBridge } from '#support/renderer/settings-bridge';

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
    await user.click(within(section).getByRole('button', { name: 'Save report settings' }));
    expect(await within(section).findByText('Saved.')).toBeTruthy();
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: { report: { otherIncome: true } },
    });
    expect(box.checked).toBe(true);
  });
});
