import { useState } from 'react';
import { formatNaira } from '#shared/money';
import type { Settings } from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { SaveRow, TextField } from './fields';
import { nairaText, parseNaira, useSettingsSection } from './settings-form';

const FIELD = 'report.otherIncome';
const FLAG_ABOVE = 'standingAccounts.flagAboveKobo';

/** Blank or 0 turns the rule off. */
function flagAboveText(kobo: number): string {
  return kobo === 0 ? '' : nairaText(kobo);
}

/** The limit typed, 0 when blank (off), or null when it is not an amount. */
function parseFlagAbove(text: string): number | null {
  return text.trim() === '' ? 0 : parseNaira(text);
}

function flagAboveHint(kobo: number | null): string {
  if (kobo === null || kobo === 0) {
    return 'Standing accounts take any amount. Leave blank (or 0) to flag none.';
  }
  return `A payment above ${formatNaira(kobo)} into a standing account is flagged and listed in the report to check with the customer.`;
}

/**
 * How the end-of-day report treats money no till of this shop asked for: a case for a person
 * (the default), or other income when the merchant account also takes transfers from other
 * channels (a POS terminal, a website, a second business). And the owner's limit above which a
 * payment into a standing account (it takes any amount) is a case to check.
 */
export function ReportSection({
  settings,
  onSaved,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const [otherIncome, setOtherIncome] = useState(settings.report.otherIncome);
  const [flagAbove, setFlagAbove] = useState(() =>
    flagAboveText(settings.standingAccounts.flagAboveKobo),
  );
  const flagAboveKobo = parseFlagAbove(flagAbove);
  const section = useSettingsSection({
    settings,
    patch: {
      report: { otherIncome },
      ...(flagAboveKobo === null ? {} : { standingAccounts: { flagAboveKobo } }),
    },
    localErrors:
      flagAboveKobo === null
        ? { [FLAG_ABOVE]: 'Enter an amount in Naira, e.g. 50000 or 2500.50, or leave it blank' }
        : {},
    fields: [FIELD, FLAG_ABOVE],
    onSaved: (saved) => {
      setOtherIncome(saved.settings.report.otherIncome);
      setFlagAbove(flagAboveText(saved.settings.standingAccounts.flagAboveKobo));
      onSaved(saved);
    },
  });
  return (
    <section className="panel settings-section report" aria-labelledby="report-settings-heading">
      <h3 id="report-settings-heading">End-of-day report</h3>
      <label className="checkbox">
        <input
          id={section.idOf(FIELD)}
          type="checkbox"
          checked={otherIncome}
          onChange={(event) => {
            setOtherIncome(event.target.checked);
            section.edited(FIELD);
          }}
        />
        <span>This account also receives transfers from other channels</span>
      </label>
      <p className="field-hint">
        Tick it when the same merchant account is paid by a POS terminal, a website or another
        business. Transfers with no reference of this shop are then listed as &ldquo;Other income on
        this account&rdquo;, counted apart from the shop&apos;s sales, and not under &ldquo;Needs a
        person&rdquo;. Leave it off and each one is a case to check.
      </p>
      <TextField
        section={section}
        field={FLAG_ABOVE}
        label="Flag a payment into a standing account above (₦)"
        inputMode="decimal"
        hint={flagAboveHint(flagAboveKobo)}
        value={flagAbove}
        onChange={setFlagAbove}
      />
      <SaveRow section={section} label="Save report settings" />
    </section>
  );
}
