import { formatNaira } from '#shared/money';
import type { Settings } from '#shared/settings-schema';
import { LEGACY_TILL_ID } from '#shared/till-id';
import type { SettingsView } from '#shared/views';
import { describedBy, SaveRow, TextField } from './fields';
import { OutageFields } from './outage-section';
import { ReportFields } from './report-section';
import { CASHIERS, useShopForm, type ShopForm } from './use-shop';
import { settingLabel } from '#shared/settings/registry';

/** The shop, the till, its cashiers, the business day and the largest sale. */
export function ShopPage({
  settings,
  onSaved,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const form = useShopForm(settings, onSaved);
  return (
    <>
      <ShopSection settings={settings} form={form} />
      <ReportFields form={form} />
      <OutageFields form={form} />
      <div className="panel settings-save">
        <SaveRow section={form.section} label="Save shop settings" />
      </div>
    </>
  );
}

function ShopSection({ settings, form }: { readonly settings: Settings; readonly form: ShopForm }) {
  const { draft, change, section, maxSaleKobo } = form;
  return (
    <section className="panel settings-section shop" aria-labelledby="shop-heading">
      <h3 id="shop-heading">Shop and till</h3>
      <div className="field-grid">
        <TextField
          section={section}
          field="shop.name"
          value={draft.name}
          onChange={(value) => change('name', value)}
        />
        <TextField
          section={section}
          field="shop.tillId"
          value={draft.tillId}
          onChange={(value) => change('tillId', value)}
        />
        {settings.shop.tillId === LEGACY_TILL_ID && (
          <p className="notice" role="note" data-testid="till-id-notice">
            This till still has the old default id {LEGACY_TILL_ID}. If the shop has more than one
            till, give each its own id (e.g. till-a7k2), so that each report can tell its own sales
            from the other tills&apos;. Sales already made here stay this till&apos;s.
          </p>
        )}
        <TextField
          section={section}
          field="timeZone"
          value={draft.timeZone}
          onChange={(value) => change('timeZone', value)}
        />
        <TextField
          section={section}
          field="dayCutoffHour"
          value={draft.dayCutoffHour}
          onChange={(value) => change('dayCutoffHour', value)}
        />
        <TextField
          section={section}
          field="maxSaleKobo"
          hint={
            maxSaleKobo === null
              ? 'The till refuses sales above this amount.'
              : `${formatNaira(maxSaleKobo)}: the till refuses sales above this amount.`
          }
          value={draft.maxSale}
          onChange={(value) => change('maxSale', value)}
        />
      </div>

      <CashierList form={form} />
    </section>
  );
}

function CashierList({ form }: { readonly form: ShopForm }) {
  const { draft, section, newCashier, addCashier, removeCashier } = form;
  const itemErrors = new Map(
    section.itemErrorsOf(CASHIERS).map((item) => [item.index, item.message]),
  );
  const newCashierId = section.idOf(CASHIERS);
  const newCashierProblem = form.newCashierError ?? section.errorOf(CASHIERS);
  return (
    <fieldset className="cashiers">
      <legend>{settingLabel(CASHIERS)}</legend>
      {draft.cashiers.length === 0 ? (
        <p className="muted">No cashiers yet.</p>
      ) : (
        <ul className="cashier-list" aria-label={settingLabel(CASHIERS)}>
          {draft.cashiers.map((name, index) => (
            <li key={`${index}-${name}`}>
              <span className="cashier-name">{name}</span>
              <button
                type="button"
                className="button secondary"
                aria-label={`Remove ${name}`}
                onClick={() => removeCashier(index)}
              >
                Remove
              </button>
              {itemErrors.has(index) && <p className="field-error">{itemErrors.get(index)}</p>}
            </li>
          ))}
        </ul>
      )}
      <div className="add-cashier">
        <label htmlFor={newCashierId}>New cashier name</label>
        <input
          id={newCashierId}
          type="text"
          autoComplete="off"
          value={newCashier}
          aria-invalid={newCashierProblem !== undefined}
          aria-describedby={describedBy(newCashierProblem && `${newCashierId}-error`)}
          onChange={(event) => form.typeNewCashier(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              addCashier();
            }
          }}
        />
        <button type="button" className="button secondary" onClick={addCashier}>
          Add cashier
        </button>
        {newCashierProblem && (
          <p id={`${newCashierId}-error`} className="field-error">
            {newCashierProblem}
          </p>
        )}
      </div>
    </fieldset>
  );
}
