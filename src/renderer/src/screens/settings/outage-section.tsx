import { OUTAGE_POLICIES, type OutagePolicy } from '#shared/sales';
import { GOODS_GIVEN_LABEL, TAKE_ON_STANDING_LABEL } from '../../sale-moment';
import { CheckboxField } from './fields';
import { OUTAGE_BY_CHOICE, OUTAGE_POLICY, useOutageAccount, type ShopForm } from './use-shop';
import { settingLabel } from '#shared/settings/registry';

const POLICY_WORDS: Readonly<Record<OutagePolicy, { label: string; hint: string }>> = {
  wait: {
    label: 'Wait for confirmation',
    hint: 'The goods stay until the payment is confirmed, when the provider is back.',
  },
  hand_over: {
    label: "Hand over on the customer's screen",
    hint: `The cashier may give the goods when the customer's banking app shows the transfer, and presses "${GOODS_GIVEN_LABEL}" (recorded).`,
  },
};

/**
 * Selling through an outage: the till's standing account (made by "Check everything" while
 * online), what the shop does while an outage sale is not confirmed, and whether cashiers may
 * take one while the provider answers. Saved with the Shop page.
 */
export function OutageFields({ form }: { readonly form: ShopForm }) {
  const { draft, change, section } = form;
  const policyId = section.idOf(OUTAGE_POLICY);
  const policyError = section.errorOf(OUTAGE_POLICY);
  return (
    <section className="panel settings-section outage" aria-labelledby="outage-settings-heading">
      <h3 id="outage-settings-heading">When the provider can&apos;t be reached</h3>
      <OutageAccount />
      <fieldset className="field" id={policyId}>
        <legend>{settingLabel(OUTAGE_POLICY)}</legend>
        {OUTAGE_POLICIES.map((policy) => (
          <label key={policy} className="radio">
            <input
              type="radio"
              name={policyId}
              value={policy}
              checked={draft.outagePolicy === policy}
              onChange={() => {
                change('outagePolicy', policy);
                section.edited(OUTAGE_POLICY);
              }}
            />
            <span>
              {POLICY_WORDS[policy].label}
              <span className="field-hint"> {POLICY_WORDS[policy].hint}</span>
            </span>
          </label>
        ))}
        {policyError && <p className="field-error">{policyError}</p>}
      </fieldset>
      <CheckboxField
        section={section}
        field={OUTAGE_BY_CHOICE}
        checked={draft.outageByChoice}
        onChange={(checked) => change('outageByChoice', checked)}
        hint={`Off: cashiers are offered "${TAKE_ON_STANDING_LABEL}" only when a sale cannot be created for lack of connection.`}
      />
    </section>
  );
}

/** The standing account for outages: its number, bank and name, or how to make it. */
function OutageAccount() {
  const account = useOutageAccount();
  if (account === undefined) return null;
  if (account === null) {
    return (
      <p className="notice" data-testid="outage-account">
        Standing account for outages: Not made yet: press Check everything while online.
      </p>
    );
  }
  return (
    <dl
      className="outage-account"
      data-testid="outage-account"
      aria-label="Standing account for outages"
    >
      <dt>Standing account for outages</dt>
      <dd>
        {account.accountNumber ?? '—'} · {account.bank ?? '—'} · {account.accountName ?? '—'}
      </dd>
    </dl>
  );
}
