import { formatNaira } from '#shared/money';
import { formatDateTime } from '../../format';
import { useBalance, usePayoutCheck } from './use-balance';

const BALANCE_LABELS: Readonly<Record<string, string>> = {
  AvailableBalance: 'Available for payout',
  SettlementPositionBalance: 'Settlement position (not available for payout)',
};

function balanceLabel(type: string): string {
  return BALANCE_LABELS[type] ?? type;
}

export function BalanceScreen() {
  const { balance, loading, error, refresh } = useBalance();
  const { payout, editPayout, check, checkError, checking, checkPayout } = usePayoutCheck();

  return (
    <section className="screen balance" aria-labelledby="balance-heading">
      <h2 id="balance-heading">Payout balance</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {loading && <p role="status">Asking the bank for the balance…</p>}
      {balance && (
        <div className="balance-card">
          <p className="balance-label">Available balance</p>
          <p className="available-balance" data-testid="available-balance">
            {formatNaira(balance.availableKobo)}
          </p>
          {balance.availableDisplay && (
            <p className="cross-check muted">Provider shows: {balance.availableDisplay}</p>
          )}
          <dl className="balance-details">
            {balance.otherBalances.map((other) => (
              <div key={other.balanceType} className="balance-row">
                <dt>{balanceLabel(other.balanceType)}</dt>
                <dd>
                  {formatNaira(other.valueKobo)}
                  {other.display && (
                    <span className="muted"> (provider shows {other.display})</span>
                  )}
                </dd>
              </div>
            ))}
            <div className="balance-row">
              <dt>Owner</dt>
              <dd>{balance.ownerName ?? '—'}</dd>
            </div>
            <div className="balance-row">
              <dt>Account name</dt>
              <dd>{balance.name ?? '—'}</dd>
            </div>
            <div className="balance-row">
              <dt>Account id</dt>
              <dd className="mono">{balance.accountId}</dd>
            </div>
            {balance.status && (
              <div className="balance-row">
                <dt>Status</dt>
                <dd>{balance.status}</dd>
              </div>
            )}
            <div className="balance-row">
              <dt>Last refreshed</dt>
              <dd data-testid="balance-refreshed">{formatDateTime(balance.refreshedAt)}</dd>
            </div>
          </dl>
        </div>
      )}
      <button
        type="button"
        className="button secondary"
        disabled={loading}
        onClick={() => void refresh()}
      >
        Refresh
      </button>

      <form className="panel payout-check" onSubmit={(event) => void checkPayout(event)} noValidate>
        <h3>Before a payout</h3>
        <label>
          <span>Payout total (₦)</span>
          <input
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={payout}
            onChange={(event) => editPayout(event.target.value)}
          />
        </label>
        <button type="submit" className="button primary" disabled={checking}>
          Check
        </button>
        {checkError && (
          <p className="error" role="alert">
            {checkError}
          </p>
        )}
        {check && (
          <p
            className={`payout-result ${check.covered ? 'covered' : 'short'}`}
            role="status"
            data-testid="payout-result"
          >
            {check.covered
              ? `Covered: ${formatNaira(check.availableKobo)} available for ${formatNaira(check.requestedKobo)}.`
              : `Short by ${formatNaira(check.shortfallKobo)}: only ${formatNaira(check.availableKobo)} available.`}
          </p>
        )}
      </form>
    </section>
  );
}
