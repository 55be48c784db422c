import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SETTINGS_PAGES } from '#shared/settings/pages';
import { settingEntries, settingLabel } from '#shared/settings/registry';
import { settings, settingsView } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { settingsBridge } from '#support/renderer/settings-bridge';
import { PAGE_SHELL } from './settings-pages';

/** Settings a page shows only in another state of the form than the one rendered here. */
const SHOWN_ONLY_IN: Readonly<Record<string, string>> = {
  'callbacks.publicUrl': "the shop's own address (the mode below is the ngrok tunnel)",
};

/** The page's words with the public address's mode chosen, for the one field it hides. */
const PUBLIC_URL_MODE = settingsView({
  settings: settings({ callbacks: { ...settings().callbacks, mode: 'public-url' } }),
});

describe('each Settings page shows the settings its registry entries place on it', () => {
  const pages = SETTINGS_PAGES.filter((page) => PAGE_SHELL[page.id] !== 'electron');

  it.each(pages.map((page) => [page.label, page.id] as const))(
    'the %s page names each of its settings by its label',
    async (_label, id) => {
      renderApp(settingsBridge(), `#/settings/${id}`);
      const page = await screen.findByRole('tabpanel');
      const labels = settingEntries()
        .filter(([path, entry]) => entry.page === id && SHOWN_ONLY_IN[path] === undefined)
        .map(([, entry]) => entry.label);
      await waitFor(() => {
        const text = page.textContent ?? '';
        expect(labels.filter((label) => !text.includes(label))).toEqual([]);
      });
    },
  );

  it("the Callbacks page names the public address in the shop's own address mode", async () => {
    renderApp(settingsBridge(PUBLIC_URL_MODE), '#/settings/callbacks');
    const page = await screen.findByRole('tabpanel');
    await waitFor(() => expect(page.textContent).toContain(settingLabel('callbacks.publicUrl')));
  });
});
