import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { findSection, settingsBridge } from '#support/renderer/settings-bridge';

const HEADING = "When the provider can't be reached";

describe('Outage settings on the Shop page', () => {
  it('says the standing account is not made yet, and saves the rule and the choice', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection(HEADING);
    expect((await within(section).findByTestId('outage-account')).textContent).toContain(
      'Not made yet: press Check everything while online.',
    );
    const wait = within(section).getByRole<HTMLInputElement>('radio', {
      name: /^Wait for confirmation/,
    });
    expect(wait.checked).toBe(true);
    await user.click(
      within(section).getByRole('radio', { name: /^Hand over on the customer's screen/ }),
    );
    await user.click(
      within(section).getByRole('checkbox', {
        name: 'Allow outage sales while the provider answers',
      }),
    );
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: expect.objectContaining({
        outage: { policy: 'hand_over', allowByChoice: true },
      }) as unknown,
    });
  });

  it('shows the standing account with its number, bank and name', async () => {
    const bridge = settingsBridge();
    bridge.getOutageAccount.mockImplementation(() =>
      ok({
        id: 3,
        type: 'static-flex',
        reference: 'TT-OUT',
        accountNumber: '9876543210',
        accountName: 'Mama Put Stores',
        bank: 'Wema Bank',
        amountKobo: null,
        createdAt: 1,
      }),
    );
    renderApp(bridge, '#/settings');
    const section = await findSection(HEADING);
    expect((await within(section).findByTestId('outage-account')).textContent).toContain(
      '9876543210 · Wema Bank · Mama Put Stores',
    );
  });
});
