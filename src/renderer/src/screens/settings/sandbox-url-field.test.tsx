import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import {
  descriptionOf,
  fieldIn,
  findSection,
  settingsBridge,
} from '#support/renderer/settings-bridge';

const CONTROL_URL = 'http://127.0.0.1:4010/control';

describe('Settings: the shared training sandbox', () => {
  it('saves the control URL of a standalone sandbox in the SANDBOX profile only', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const sandbox = await findSection('SANDBOX profile');
    const group = within(sandbox).getByRole('group', { name: 'Shared training sandbox' });
    const field = fieldIn(group, 'Shared sandbox address');
    expect(field.value).toBe('');
    expect(descriptionOf(field)).toContain('npm run sandbox');
    expect(within(await findSection('STAGING profile')).queryByLabelText(/Shared sandbox/)).toBe(
      null,
    );

    await user.type(field, CONTROL_URL);
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: {
        profiles: expect.objectContaining({
          sandbox: expect.objectContaining({ sandboxUrl: CONTROL_URL }) as unknown,
        }) as unknown,
      },
    });
    expect((await screen.findByText('Saved.')).getAttribute('role')).toBe('status');
    expect(field.value).toBe(CONTROL_URL);
    // The profile says which provider it now uses.
    expect(sandbox.textContent).toContain(`shared sandbox provider at ${CONTROL_URL}`);
    expect(sandbox.textContent).not.toContain('built-in sandbox provider');
  });

  it('shows the schema message next to the field for an address it cannot use', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const group = within(await findSection('SANDBOX profile')).getByRole('group', {
      name: 'Shared training sandbox',
    });
    const field = fieldIn(group, 'Shared sandbox address');
    await user.type(field, '127.0.0.1:4010/control');
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(field)).toMatch(/Enter a full address|must start with https:\/\//);
    expect(bridge.updateSettings).not.toHaveBeenCalled();
  });

  it("puts Test connection's answer for an unreachable shared sandbox in words", async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    const message = `Cannot reach the shared sandbox at ${CONTROL_URL} (nothing is listening there). Start one with \`npm run sandbox\`.`;
    bridge.testConnection.mockImplementation(() => fail('SANDBOX_UNREACHABLE', message));
    renderApp(bridge, '#/settings');
    const sandbox = await findSection('SANDBOX profile');
    await user.click(within(sandbox).getByRole('button', { name: 'Test connection (SANDBOX)' }));
    expect((await within(sandbox).findByRole('alert')).textContent).toBe(message);
  });
});
