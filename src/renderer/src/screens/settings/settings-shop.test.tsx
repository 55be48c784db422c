import { screen, fireEvent, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '#support/renderer/render-app';
import {
  descriptionOf,
  fieldIn,
  findSection,
  settingsBridge,
} from '#support/renderer/settings-bridge';
import { parseNaira } from './settings-form';

function cashierNames(section: HTMLElement): readonly (string | null | undefined)[] {
  const list = within(section).queryByRole('list', { name: 'Cashiers' });
  if (!list) return [];
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.cashier-name')?.textContent);
}

describe('Settings screen: shop and till', () => {
  it('adds and removes cashiers and saves the list', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const shop = await findSection('Shop and till');
    const newName = fieldIn(shop, 'New cashier name');

    await user.type(newName, '  Chidi {Enter}');
    expect(cashierNames(shop)).toEqual(['Ada', 'Bola', 'Chidi']);
    expect(newName.value).toBe('');

    // The schema's own words refuse a name already in the list, before it joins.
    await user.type(newName, 'ada');
    await user.click(within(shop).getByRole('button', { name: 'Add cashier' }));
    expect(descriptionOf(newName)).toBe('"ada" is already in the list');
    expect(cashierNames(shop)).toEqual(['Ada', 'Bola', 'Chidi']);

    await user.clear(newName);
    await user.click(within(shop).getByRole('button', { name: 'Add cashier' }));
    expect(descriptionOf(newName)).toBe('Type the cashier’s name first');

    await user.click(within(shop).getByRole('button', { name: 'Remove Bola' }));
    expect(cashierNames(shop)).toEqual(['Ada', 'Chidi']);

    await user.click(screen.getByRole('button', { name: /^Save/ }));
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: {
        shop: { name: 'Mama Put Stores', tillId: 'till-1', cashiers: ['Ada', 'Chidi'] },
        timeZone: 'Africa/Lagos',
        dayCutoffHour: 0,
        maxSaleKobo: 500_000_000,
        // The report's part of the Shop page, saved by the same one button.
        report: { otherIncome: false },
        standingAccounts: { flagAboveKobo: 0 },
        outage: { policy: 'wait', allowByChoice: false },
      },
    });
    expect((await screen.findByText('Saved.')).getAttribute('role')).toBe('status');
  });

  it("shows the server's message next to the cashier it is about", async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.updateSettings.mockImplementation(() =>
      Promise.resolve({
        ok: false,
        error: {
          code: 'INVALID_SETTINGS',
          message: 'Cashiers: This name is reserved',
          field: 'shop.cashiers.1',
        },
      }),
    );
    renderApp(bridge, '#/settings');
    const shop = await findSection('Shop and till');
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    const bola = within(within(shop).getByRole('list', { name: 'Cashiers' })).getAllByRole(
      'listitem',
    )[1];
    if (!bola) throw new Error('no second cashier');
    await waitFor(() => expect(bola.textContent).toContain('This name is reserved'));
    expect(bola.textContent).not.toContain('Cashiers:');
  });

  it('edits the largest sale in Naira and saves it in kobo', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const shop = await findSection('Shop and till');
    const maxSale = fieldIn(shop, 'Largest sale (₦)');
    expect(maxSale.value).toBe('5000000');
    expect(descriptionOf(maxSale)).toContain('₦5,000,000.00');

    await user.clear(maxSale);
    await user.type(maxSale, 'lots');
    expect(descriptionOf(maxSale)).toContain('Enter an amount in Naira');
    await user.clear(maxSale);
    await user.type(maxSale, '0.50');
    expect(descriptionOf(maxSale)).toContain('At least ₦1.00');
    await user.clear(maxSale);
    await user.type(maxSale, '2,500,000.50');
    expect(descriptionOf(maxSale)).toBe('₦2,500,000.50: the till refuses sales above this amount.');
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: expect.objectContaining({ maxSaleKobo: 250_000_050 }) as unknown,
    });
    // What the server kept comes back as Naira text.
    await waitFor(() => expect(maxSale.value).toBe('2500000.50'));
  });

  it('checks the time zone, the cut-off hour and the till id with the schema', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const shop = await findSection('Shop and till');
    const zone = fieldIn(shop, 'Time zone');
    await user.clear(zone);
    await user.type(zone, 'Mars/Olympus');
    expect(descriptionOf(zone)).toContain('Unknown time zone');
    await user.clear(zone);
    await user.type(zone, 'Africa/Accra');
    expect(descriptionOf(zone)).not.toContain('Unknown');

    const cutoff = fieldIn(shop, 'End-of-day cut-off hour');
    await user.clear(cutoff);
    await user.type(cutoff, '24');
    expect(descriptionOf(cutoff)).toContain('A whole hour from 0 to 23');

    const till = fieldIn(shop, 'Till id');
    await user.clear(till);
    await user.type(till, 'till 2');
    expect(descriptionOf(till)).toContain('Letters, digits and - only');

    await user.click(screen.getByRole('button', { name: /^Save/ }));
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(till);
  });

  it('reads Naira as people write it', () => {
    expect(parseNaira('₦1,234.56')).toBe(123_456);
    expect(parseNaira('5000000')).toBe(500_000_000);
    expect(parseNaira('1.234')).toBeNull();
    expect(parseNaira('')).toBeNull();
  });
});

describe('Settings screen: sync, backups and sounds', () => {
  it('saves the sync interval, backups and sounds', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('Sync, backups and sounds');
    const interval = fieldIn(section, 'Sync interval (minutes)');
    await user.clear(interval);
    await user.type(interval, '30');
    await user.click(within(section).getByRole('checkbox', { name: 'Sync when the app starts' }));
    const keep = fieldIn(section, 'Backups to keep');
    await user.clear(keep);
    await user.type(keep, '0');
    expect(descriptionOf(keep)).toContain('Keep at least 1 backup');
    await user.type(keep, '{Backspace}14');
    const bodies = fieldIn(section, 'Keep payment messages whole (days)');
    expect(bodies.value).toBe('90');
    await user.clear(bodies);
    await user.type(bodies, '10');
    expect(descriptionOf(bodies)).toContain('Keep callback bodies at least 30 days');
    await user.type(bodies, '{Backspace}{Backspace}400');
    const volume = within(section).getByRole('slider', { name: 'Chime volume' });
    expect(volume.getAttribute('aria-valuetext')).toBe('60%');
    // user-event cannot drag a slider; a change event is what the browser sends.
    fireEvent.change(volume, { target: { value: '50' } });
    expect(volume.getAttribute('aria-valuetext')).toBe('50%');
    await user.click(within(section).getByRole('button', { name: /Save sync/ }));
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: {
        sync: { onStartup: false, intervalMinutes: 30 },
        backups: { keep: 14 },
        retention: { callbackBodyDays: 400 },
        sounds: { enabled: true, volume: 0.5 },
      },
    });
  });

  it('turns the chime off', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('Sync, backups and sounds');
    const chime = within(section).getByRole('checkbox', {
      name: 'Play a chime when a sale is paid',
    });
    await user.click(chime);
    expect(within(section).getByRole('slider', { name: 'Chime volume' })).toHaveProperty(
      'disabled',
      true,
    );
  });
});
