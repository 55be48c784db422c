import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { settingsView } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import {
  descriptionOf,
  fieldIn,
  findSection,
  settingsBridge,
} from '#support/renderer/settings-bridge';

describe('Settings screen: the till id', () => {
  it('suggests a unique id while the till has the old default, and checks the one typed', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const shop = await findSection('Shop and till');
    expect(within(shop).getByTestId('till-id-notice').textContent).toMatch(
      /old default id till-1\. If the shop has more than one till, give each its own id/,
    );

    const tillId = fieldIn(shop, 'Till id');
    for (const [typed, problem] of [
      ['till_2', 'Letters, digits and - only (e.g. till-a7k2)'],
      ['front-counter-one', 'At most 16 characters'],
      ['--', 'Use at least one letter or digit'],
    ] as const) {
      await user.clear(tillId);
      await user.type(tillId, typed);
      await user.tab();
      await waitFor(() => expect(descriptionOf(tillId)).toContain(problem));
    }

    await user.clear(tillId);
    await user.type(tillId, 'till-a7k2');
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    await waitFor(() =>
      expect(bridge.updateSettings).toHaveBeenCalledWith({
        patch: expect.objectContaining({
          shop: expect.objectContaining({ tillId: 'till-a7k2' }) as unknown,
        }) as unknown,
      }),
    );
    await waitFor(() => expect(within(shop).queryByTestId('till-id-notice')).toBeNull());
  });

  it('shows no notice for a till that has an id of its own', async () => {
    const view = settingsView();
    const bridge = settingsBridge({
      ...view,
      settings: { ...view.settings, shop: { ...view.settings.shop, tillId: 'till-k3j9' } },
    });
    renderApp(bridge, '#/settings');
    const shop = await findSection('Shop and till');
    expect(fieldIn(shop, 'Till id').value).toBe('till-k3j9');
    expect(within(shop).queryByTestId('till-id-notice')).toBeNull();
  });
});
