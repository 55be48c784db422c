import { formatNaira } from '#shared/money';
import { CheckboxField, TextField } from './fields';
import { FLAG_ABOVE, OTHER_INCOME, type ShopForm } from './use-shop';

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
 * payment into a standing account (it takes any amount) is a case to check. Saved with the Shop
 * page.
 */
export function ReportFields({ form }: { readonly form: ShopForm }) {
  const { draft, change, section } = form;
  return (
    <section className="panel settings-section report" aria-labelledby="report-settings-heading">
      <h3 id="report-settings-heading">End-of-day report</h3>
      <CheckboxField
        section={section}
        field={OTHER_INCOME}
        checked={draft.otherIncome}
        onChange={(checked) => change('otherIncome', checked)}
        hint={
          <>
            Tick it when the same merchant account is paid by a POS terminal, a website or another
            business. Transfers with no reference of this shop are then listed as &ldquo;Other
            income on this account&rdquo;, counted apart from the shop&apos;s sales, and not under
            &ldquo;Needs a person&rdquo;. Leave it off and each one is a case to check.
          </>
        }
      />
      <TextField
        section={section}
        field={FLAG_ABOVE}
        hint={flagAboveHint(form.flagAboveKobo)}
        value={draft.flagAbove}
        onChange={(value) => change('flagAbove', value)}
      />
    </section>
  );
}
