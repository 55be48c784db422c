import { useState } from 'react';
import type { Settings } from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { SaveRow } from './fields';
import { useSettingsSection } from './settings-form';

const FIELD = 'report.otherIncome';

/**
 * How the end-of-day report treats money no till of this shop asked for: a case for a person
 * (the default), or other income when the merchant account also takes transfers from other
 * channels (a POS terminal, a website, a second business).
 */
export function ReportSection({
  settings,
  onSaved,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const [otherIncome, setOtherIncome] = useState(settings.report.otherIncome);
  const section = useSettingsSection({
    settings,
    patch: { report: { otherIncome } },
    fields: [FIELD],
    onSaved: (saved) => {
      setOtherIncome(saved.settings.report.otherIncome);
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
      <SaveRow section={section} label="Save report settings" />
    </section>
  );
}
