import { fireEvent, screen, within } from '@testing-library/react';
import { settingsSchema } from '#shared/settings-schema';
import type { SecretsView, SettingsView } from '#shared/views';
import { mergePatch } from '../../../src/renderer/src/screens/settings/settings-form';
import { createFakeBridge, type FakeBridge } from './fake-bridge';
import { fail, hubView, ok, secretsView, session, settingsView } from './fixtures';

/**
 * A fake bridge whose settings channels behave like the server: updateSettings merges the patch,
 * validates it with the shared schema and answers with the new view (or the first field error).
 */
export function settingsBridge(
  initial: SettingsView = settingsView(),
  secrets: (environment: string) => SecretsView = () => secretsView(),
): FakeBridge {
  const bridge = createFakeBridge();
  let current = initial;
  bridge.getSettings.mockImplementation(() => ok(current));
  // As main does: the session carries the saved sounds and cashier list to every counter.
  bridge.getSession.mockImplementation(() =>
    ok(
      session({
        sounds: current.settings.sounds,
        cashiers: current.settings.shop.cashiers.map((name) => ({ name, pinSet: false })),
        cashierPinsRequired: current.settings.roles.cashierPins,
      }),
    ),
  );
  bridge.updateSettings.mockImplementation(({ patch }) => {
    const parsed = settingsSchema.safeParse(mergePatch(current.settings, patch));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.map(String).join('.') ?? '';
      return fail('INVALID_SETTINGS', `${field}: ${issue?.message ?? 'invalid'}`, field);
    }
    current = { ...current, settings: parsed.data };
    return ok(current);
  });
  bridge.getSecrets.mockImplementation(({ environment }) => ok(secrets(environment)));
  // Settings → Shop hub shows the LAN listener as the Counters screen does.
  bridge.getHub.mockImplementation(() => ok(hubView()));
  return bridge;
}

/**
 * A settings section (a region named by its heading), on whichever Settings page holds it: the
 * pages' tabs are opened in turn until it shows.
 */
export async function findSection(name: string | RegExp): Promise<HTMLElement> {
  const shown = screen.queryByRole('region', { name });
  if (shown) return shown;
  const tabs = await screen.findAllByRole('tab');
  for (const tab of tabs) {
    fireEvent.click(tab);
    const region = screen.queryByRole('region', { name });
    if (region) return region;
  }
  return screen.findByRole('region', { name });
}

/** The text of everything that describes an element (aria-describedby), space separated. */
export function descriptionOf(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(/\s+/) ?? [];
  return ids
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
    .trim();
}

/** An input by its label inside a section. */
export function fieldIn(
  section: HTMLElement,
  label: string | RegExp,
): HTMLInputElement | HTMLTextAreaElement {
  const field = within(section).getByLabelText(label);
  if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) return field;
  throw new Error(`${String(label)} is not a text field`);
}
