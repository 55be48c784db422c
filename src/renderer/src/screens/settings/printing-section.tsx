import { useState } from 'react';
import { PAPER_WIDTHS_MM, type PaperWidthMm } from '#shared/printing';
import type { Settings } from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { describedBy, SaveRow } from './fields';
import { useSettingsSection } from './settings-form';
import { usePrinters } from './use-printing';
import { settingLabel } from '#shared/settings/registry';

interface PrintingDraft {
  readonly receiptPrinter: string;
  readonly paperWidthMm: PaperWidthMm;
}

function draftOf(settings: Settings): PrintingDraft {
  return {
    receiptPrinter: settings.printing.receiptPrinter,
    paperWidthMm: settings.printing.paperWidthMm,
  };
}

/** The option that keeps the print dialog for every receipt. */
const ASK_EACH_TIME = '';

/**
 * Receipt printing: the roll's width, and in the desktop app the printer a receipt goes to
 * without a dialog (chosen from the printers this computer offers).
 */
export function PrintingSection({
  settings,
  onSaved,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const [draft, setDraft] = useState<PrintingDraft>(() => draftOf(settings));
  const { printers, listProblem } = usePrinters();

  const section = useSettingsSection({
    settings,
    patch: { printing: { receiptPrinter: draft.receiptPrinter, paperWidthMm: draft.paperWidthMm } },
    fields: ['printing.receiptPrinter', 'printing.paperWidthMm'],
    onSaved: (saved) => {
      setDraft(draftOf(saved.settings));
      onSaved(saved);
    },
  });

  function change<K extends keyof PrintingDraft>(key: K, value: PrintingDraft[K]): void {
    setDraft((current) => ({ ...current, [key]: value }));
    section.edited(`printing.${key}`);
  }

  const silent = printers?.canPrintSilently ?? false;
  const offered = printers?.printers ?? [];
  // A saved printer the computer does not offer now (unplugged) stays choosable, named as such.
  const missing =
    draft.receiptPrinter !== ASK_EACH_TIME &&
    !offered.some((printer) => printer.name === draft.receiptPrinter);
  const printerId = section.idOf('printing.receiptPrinter');
  const hintId = `${printerId}-hint`;
  const errorId = `${printerId}-error`;
  const printerError = section.errorOf('printing.receiptPrinter');
  const widthError = section.errorOf('printing.paperWidthMm');

  return (
    <section className="panel settings-section printing" aria-labelledby="printing-heading">
      <h3 id="printing-heading">Receipt printing</h3>
      <fieldset className="radio-group">
        <legend>{settingLabel('printing.paperWidthMm')}</legend>
        {PAPER_WIDTHS_MM.map((width) => (
          <label key={width} className="radio">
            <input
              type="radio"
              name="receipt-paper-width"
              id={width === draft.paperWidthMm ? section.idOf('printing.paperWidthMm') : undefined}
              checked={draft.paperWidthMm === width}
              onChange={() => change('paperWidthMm', width)}
            />
            {width} mm
          </label>
        ))}
      </fieldset>
      {widthError && <p className="field-error">{widthError}</p>}

      <div className={`field ${printerError ? 'field-invalid' : ''}`}>
        <label htmlFor={printerId}>{settingLabel('printing.receiptPrinter')}</label>
        <select
          id={printerId}
          value={draft.receiptPrinter}
          disabled={!silent && draft.receiptPrinter === ASK_EACH_TIME}
          aria-invalid={printerError !== undefined}
          aria-describedby={describedBy(hintId, printerError ? errorId : null)}
          onChange={(event) => change('receiptPrinter', event.target.value)}
        >
          <option value={ASK_EACH_TIME}>Ask each time (print dialog)</option>
          {offered.map((printer) => (
            <option key={printer.name} value={printer.name}>
              {printer.displayName}
            </option>
          ))}
          {missing && (
            <option value={draft.receiptPrinter}>{draft.receiptPrinter} (not connected now)</option>
          )}
        </select>
        <p id={hintId} className="field-hint">
          {silent
            ? 'Receipts go straight to this printer, without the print dialog. If it is off or out of paper, the dialog opens instead.'
            : 'This till prints with the browser’s print dialog. Printing straight to a printer works in the desktop app.'}
        </p>
        {printerError && (
          <p id={errorId} className="field-error">
            {printerError}
          </p>
        )}
        {listProblem && (
          <p className="field-error" role="alert">
            The printers could not be listed: {listProblem}
          </p>
        )}
      </div>
      <SaveRow section={section} label="Save printing settings" />
    </section>
  );
}
