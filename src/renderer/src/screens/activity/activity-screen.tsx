import { useState, type FormEvent } from 'react';
import { formatNaira } from '#shared/money';
import { saleNumberOf } from '#shared/report-words';
import type { InflowView, SaleView } from '#shared/sales';
import type { StandingAccountView } from '#shared/views';
import { AccountNumber } from '../../components/account-number';
import { formatTime, saleStateWords } from '../../format';
import { useSession } from '../../session-context';
import { AlertsPanel } from './alerts-panel';
import { ReprintReceipt, ReprintButton, useReprint, type Reprint } from './reprint';
import { useActivity, useNewStandingAccount } from './use-activity';

const INFLOW_STATUS_WORDS: Readonly<Record<InflowView['status'], string>> = {
  success: 'Received',
  failed: 'Failed',
  pending: 'Pending',
  unknown: 'Unknown',
};
/** How the till heard of a transfer: detail for whoever checks a payment, under "Details". */
const SOURCE_WORDS: Readonly<Record<InflowView['source'], string>> = {
  callback: "the provider's notice",
  poll: "the till's own check",
  listing: "the provider's list of transfers",
};

export function ActivityScreen({
  onAlertsChanged,
  onOpenSale,
}: {
  readonly onAlertsChanged: () => Promise<void>;
  /** Shows a sale on the sale screen (an alert's "Sale #N" and its settle action). */
  readonly onOpenSale: (sale: SaleView) => void;
}) {
  // A cashier's activity is their own sales (main filters it); standing accounts are the owner's.
  const { session } = useSession();
  const isOwner = session?.role === 'owner';
  const {
    loaded,
    error,
    sales,
    inflows,
    alerts,
    counters,
    alertError,
    acknowledge,
    checkPayment,
    openSale,
    assign,
    counterCreated,
  } = useActivity(onAlertsChanged, onOpenSale);
  const reprint = useReprint();

  return (
    <section className="screen activity" aria-labelledby="activity-heading">
      <h2 id="activity-heading">Activity</h2>
      {!loaded && <p role="status">Loading today's activity…</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}

      <AlertsPanel
        alerts={alerts}
        error={alertError}
        onAcknowledge={(alert) => void acknowledge(alert)}
        onCheckPayment={(saleId) => void checkPayment(saleId)}
        onOpenSale={(saleId) => void openSale(saleId)}
        onAssign={(alert, saleId) => void assign(alert, saleId)}
      />
      <SalesPanel sales={sales} reprint={reprint} />
      <ReprintReceipt reprint={reprint} />
      <InflowsPanel inflows={inflows} />

      {isOwner && <StandingAccounts counters={counters} onCreated={counterCreated} />}
    </section>
  );
}

function SalesPanel({
  sales,
  reprint,
}: {
  readonly sales: readonly SaleView[];
  readonly reprint: Reprint;
}) {
  return (
    <section aria-labelledby="sales-heading" className="panel">
      <h3 id="sales-heading">Today's sales ({sales.length})</h3>
      {sales.length === 0 ? (
        <p className="muted">No sales yet today.</p>
      ) : (
        // On a phone each row is a card (styles.css): money and words never break mid-word.
        <table className="data-table activity-cards" data-testid="activity-sales">
          <thead>
            <tr>
              <th scope="col">Sale</th>
              <th scope="col">Time</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">Receipt</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {sales.map((sale) => (
              <tr key={sale.id}>
                {/* The short number a cashier reads aloud and Reprint asks for. */}
                <th scope="row" className="sale-number" data-testid="sale-number">
                  {saleNumberOf(sale.id)}
                </th>
                <td className="card-time">{formatTime(sale.createdAt)}</td>
                <td className="num card-amount">{formatNaira(sale.amountKobo)}</td>
                <td className={`state state-${sale.state} card-state`}>{saleStateWords(sale)}</td>
                <td className="card-action">
                  <ReprintButton sale={sale} reprint={reprint} />
                </td>
                <td className="card-details">
                  <details className="sale-reference">
                    <summary>Reference</summary>
                    <span className="mono">{sale.reference}</span>
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function InflowsPanel({ inflows }: { readonly inflows: readonly InflowView[] }) {
  return (
    <section aria-labelledby="inflows-heading" className="panel">
      <h3 id="inflows-heading">Money in ({inflows.length})</h3>
      {inflows.length === 0 ? (
        <p className="muted">No transfers received yet today.</p>
      ) : (
        <table className="data-table activity-cards" data-testid="activity-inflows">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">For</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {inflows.map((inflow) => (
              <tr key={inflow.sessionId}>
                <td className="card-time">{formatTime(inflow.occurredAt ?? inflow.firstSeenAt)}</td>
                <td className="num card-amount">{formatNaira(inflow.amountKobo)}</td>
                <td className="card-state">{INFLOW_STATUS_WORDS[inflow.status]}</td>
                <td className="card-action">
                  {inflow.saleId !== null ? `Sale #${inflow.saleId}` : 'Standing account or other'}
                </td>
                <td className="card-details">
                  <details className="sale-reference">
                    <summary>Details</summary>
                    <span>Heard from {SOURCE_WORDS[inflow.source]}</span>
                    <span className="mono">Session ID {inflow.sessionId}</span>
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function StandingAccounts({
  counters,
  onCreated,
}: {
  readonly counters: readonly StandingAccountView[];
  readonly onCreated: (counter: StandingAccountView) => void;
}) {
  const [type, setType] = useState<StandingAccountView['type']>('static-flex');
  const [amount, setAmount] = useState('');
  const { busy, error, showError, create: send } = useNewStandingAccount(onCreated);

  async function create(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (busy) return;
    if (type === 'static' && !amount.trim()) {
      showError('Enter the fixed amount');
      return;
    }
    await send(type === 'static' ? { type, amount: amount.trim() } : { type });
  }

  return (
    <section aria-labelledby="counter-heading" className="panel">
      <h3 id="counter-heading">Standing accounts</h3>
      <p className="muted">
        A permanent account for the counter: customers can pay into it at any time without a sale.
      </p>
      {counters.length > 0 && (
        <ul className="counter-list">
          {counters.map((counter) => (
            <li key={counter.id} className="counter-item" data-testid="standing-account">
              {counter.accountNumber ? (
                <AccountNumber accountNumber={counter.accountNumber} />
              ) : (
                <span>Account not issued yet</span>
              )}
              <span>{counter.bank ?? '—'}</span>
              <span>{counter.accountName ?? '—'}</span>
              <span>
                {counter.amountKobo !== null ? formatNaira(counter.amountKobo) : 'Any amount'}
              </span>
            </li>
          ))}
        </ul>
      )}
      <form className="counter-form" onSubmit={(event) => void create(event)} noValidate>
        <fieldset>
          <legend>New standing account</legend>
          <label className="radio">
            <input
              type="radio"
              name="counter-type"
              checked={type === 'static-flex'}
              onChange={() => setType('static-flex')}
            />
            Any amount
          </label>
          <label className="radio">
            <input
              type="radio"
              name="counter-type"
              checked={type === 'static'}
              onChange={() => setType('static')}
            />
            Fixed amount
          </label>
          {type === 'static' && (
            <label>
              <span>Fixed amount (₦)</span>
              <input
                type="text"
                inputMode="decimal"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
              />
            </label>
          )}
        </fieldset>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button primary" disabled={busy}>
          Create standing account
        </button>
        {busy && <p role="status">Creating the account…</p>}
      </form>
    </section>
  );
}
