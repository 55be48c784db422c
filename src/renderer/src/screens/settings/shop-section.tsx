import { useState } from 'react';
import { formatNaira } from '#shared/money';
import type { Settings } from '#shared/settings-schema';
import { LEGACY_TILL_ID } from '#shared/till-id';
import type { SettingsView } from '#shared/views';
import { describedBy, SaveRow, TextField } from './fields';
import {
  nairaText,
  parseNaira,
  parseNumber,
  useSettingsSection,
  validationErrors,
} from './settings-form';

interface ShopDraft {
  readonly name: string;
  readonly tillId: string;
  readonly cashiers: readonly string[];
  readonly timeZone: string;
  readonly dayCutoffHour: string;
  /** Naira as typed, e.g. "5000000" or "2500.50". */
  readonly maxSale: string;
}

function draftOf(settings: Settings): ShopDraft {
  return {
    name: settings.shop.name,
    tillId: settings.shop.tillId,
    cashiers: settings.shop.cashiers,
    timeZone: settings.timeZone,
    dayCutoffHour: String(settings.dayCutoffHour),
    maxSale: nairaText(settings.maxSaleKobo),
  };
}

const CASHIERS = 'shop.cashiers';

/** The shop, the till, its cashiers, the business day and the largest sale. */
export function ShopSection({
  settings,
  onSaved,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const [draft, setDraft] = useState<ShopDraft>(() => draftOf(settings));
  const [newCashier, setNewCashier] = useState('');
  const [newCashierError, setNewCashierError] = useState<string | null>(null);

  const cutoff = parseNumber(draft.dayCutoffHour);
  const maxSaleKobo = parseNaira(draft.maxSale);
  const localErrors: Record<string, string> = {};
  if (cutoff === null) localErrors.dayCutoffHour = 'A whole hour from 0 to 23';
  if (maxSaleKobo === null) {
    localErrors.maxSaleKobo = 'Enter an amount in Naira, e.g. 5000000 or 2500.50';
  }
  const section = useSettingsSection({
    settings,
    patch: {
      shop: { name: draft.name, tillId: draft.tillId, cashiers: draft.cashiers },
      timeZone: draft.timeZone,
      ...(cutoff === null ? {} : { dayCutoffHour: cutoff }),
      ...(maxSaleKobo === null ? {} : { maxSaleKobo }),
    },
    localErrors,
    fields: ['shop.name', 'shop.tillId', CASHIERS, 'timeZone', 'dayCutoffHour', 'maxSaleKobo'],
    onSaved: (saved) => {
      setDraft(draftOf(saved.settings));
      onSaved(saved);
    },
  });

  function change<K extends keyof ShopDraft>(key: K, value: ShopDraft[K]): void {
    setDraft((current) => ({ ...current, [key]: value }));
  }

  function addCashier(): void {
    const name = newCashier.trim();
    if (name === '') {
      setNewCashierError('Type the cashier’s name first');
      return;
    }
    // The schema decides: the same words as on save, before the name joins the list.
    const cashiers = [...draft.cashiers, name];
    const errors = validationErrors(settings, { shop: { cashiers } });
    const problem = errors[`${CASHIERS}.${cashiers.length - 1}`] ?? errors[CASHIERS];
    if (problem) {
      setNewCashierError(problem);
      return;
    }
    change('cashiers', cashiers);
    setNewCashier('');
    setNewCashierError(null);
    section.edited(CASHIERS);
  }

  function removeCashier(index: number): void {
    change(
      'cashiers',
      draft.cashiers.filter((_, at) => at !== index),
    );
    section.edited(CASHIERS);
  }

  const itemErrors = new Map(
    section.itemErrorsOf(CASHIERS).map((item) => [item.index, item.message]),
  );
  const newCashierId = section.idOf(CASHIERS);
  const listError = section.errorOf(CASHIERS);
  const newCashierProblem = newCashierError ?? listError;

  return (
    <section className="panel settings-section shop" aria-labelledby="shop-heading">
      <h3 id="shop-heading">Shop and till</h3>
      <div className="field-grid">
        <TextField
          section={section}
          field="shop.name"
          label="Shop name"
          hint="Printed on receipts and shown on the customer display."
          value={draft.name}
          onChange={(value) => change('name', value)}
        />
        <TextField
          section={section}
          field="shop.tillId"
          label="Till id"
          hint="Names this till in reports and starts every reference it makes: letters, digits and -, at most 16 (e.g. till-a7k2). Each till of the shop needs its own."
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
          label="Time zone"
          hint="A time zone name such as Africa/Lagos (the default)."
          value={draft.timeZone}
          onChange={(value) => change('timeZone', value)}
        />
        <TextField
          section={section}
          field="dayCutoffHour"
          label="End-of-day cut-off hour"
          inputMode="numeric"
          hint="The hour (0 to 23) at which the business day ends and the next begins; 0 is midnight."
          value={draft.dayCutoffHour}
          onChange={(value) => change('dayCutoffHour', value)}
        />
        <TextField
          section={section}
          field="maxSaleKobo"
          label="Largest sale (₦)"
          inputMode="decimal"
          hint={
            maxSaleKobo === null
              ? 'The till refuses sales above this amount.'
              : `${formatNaira(maxSaleKobo)}: the till refuses sales above this amount.`
          }
          value={draft.maxSale}
          onChange={(value) => change('maxSale', value)}
        />
      </div>

      <fieldset className="cashiers">
        <legend>Cashiers</legend>
        {draft.cashiers.length === 0 ? (
          <p className="muted">No cashiers yet.</p>
        ) : (
          <ul className="cashier-list" aria-label="Cashiers">
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
            onChange={(event) => {
              setNewCashier(event.target.value);
              setNewCashierError(null);
            }}
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
      <SaveRow section={section} label="Save shop settings" />
    </section>
  );
}
