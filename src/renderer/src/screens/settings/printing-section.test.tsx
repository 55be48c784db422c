import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, settings, settingsView } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { findSection, settingsBridge } from '#support/renderer/settings-bridge';

const PRINTERS = [
  { name: 'XP-80C', displayName: 'Xprinter XP-80C' },
  { name: 'Office_Laser', displayName: 'Office Laser' },
];

function printerSelect(section: HTMLElement): HTMLSelectElement {
  const select = within(section).getByRole('combobox', { name: 'Receipt printer' });
  if (!(select instanceof HTMLSelectElement)) throw new Error('the printer list is not a select');
  return select;
}

describe('Receipt printing settings', () => {
  it('saves the paper width in the browser shell, where receipts keep the print dialog', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await findSection('Receipt printing');
    const select = printerSelect(section);
    expect(select.disabled).toBe(true);
    expect(select.value).toBe('');
    expect(section.textContent).toContain('works in the desktop app');
    expect(within(section).getByRole('radio', { name: '80 mm' })).toHaveProperty('checked', true);

    await user.click(within(section).getByRole('radio', { name: '58 mm' }));
    await user.click(within(section).getByRole('button', { name: 'Save printing settings' }));
    expect(await within(section).findByText('Saved.')).toBeTruthy();
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: { printing: { receiptPrinter: '', paperWidthMm: 58 } },
    });
  });

  it('chooses the receipt printer from the printers the desktop app offers', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    bridge.listPrinters.mockImplementation(() =>
      ok({ canPrintSilently: true, printers: PRINTERS }),
    );
    renderApp(bridge, '#/settings');
    const section = await findSection('Receipt printing');
    await within(section).findByRole('option', { name: 'Xprinter XP-80C' });
    const select = printerSelect(section);
    expect(select.disabled).toBe(false);
    expect([...select.options].map((option) => option.textContent)).toEqual([
      'Ask each time (print dialog)',
      'Xprinter XP-80C',
      'Office Laser',
    ]);
    expect(section.textContent).toContain('without the print dialog');

    await user.selectOptions(select, 'Xprinter XP-80C');
    await user.click(within(section).getByRole('button', { name: 'Save printing settings' }));
    expect(await within(section).findByText('Saved.')).toBeTruthy();
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: { printing: { receiptPrinter: 'XP-80C', paperWidthMm: 80 } },
    });
  });

  it('keeps a saved printer that is not connected now, named as such', async () => {
    const bridge = settingsBridge(
      settingsView({
        settings: settings({ printing: { receiptPrinter: 'XP-58', paperWidthMm: 58 } }),
      }),
    );
    bridge.listPrinters.mockImplementation(() =>
      ok({ canPrintSilently: true, printers: PRINTERS }),
    );
    renderApp(bridge, '#/settings');
    const section = await findSection('Receipt printing');
    await within(section).findByRole('option', { name: 'Xprinter XP-80C' });
    const select = printerSelect(section);
    expect(select.value).toBe('XP-58');
    expect(select.selectedOptions[0]?.textContent).toBe('XP-58 (not connected now)');
    expect(within(section).getByRole('radio', { name: '58 mm' })).toHaveProperty('checked', true);
    expect(screen.queryByText(/could not be listed/)).toBeNull();
  });
});
