import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { BridgeError } from '../../../../shared/bridge/contract';
import { formatNaira } from '../../../../shared/money';
import type { BalanceView, PayoutCheckView } from '../../../../shared/views';
import { useBridge } from '../../bridge-context';
import { cashierMessage } from '../../errors';
import { formatDateTime } from '../../format';

const BALANCE_LABELS: Readonly<Record<string, string>> = {
  AvailableBalance: 'Available for payout',
  SettlementPositionBalance: 'Settlement position (not available for payout)',
};

/** Balance errors name the likely cause and what the manager should do about it. */
export function balanceErrorWords(error: BridgeError): string {
  switch (error.code) {
    case 'UNAUTHORIZED':
      return 'The provider refused our access token: it may have expired or be wrong. Ask the manager to enter a new token in Settings.';
    case 'NOT_FOUND':
      return 'The provider does not know the payout account id. Ask the manager to check the payout account in Settings.';
    case 'NETWORK':
    case 'TIMEOUT':
      return "The bank's service cannot be reached. Check the internet connection, then press Refresh.";
    default:
      return cashierMessage(error);
  }
}

function balanceLabel(type: string): string {
  return BALANCE_LABELS[type] ?? type;
}

export function BalanceScreen() {
  const bridge = useBridge();
  const [balance, setBalance] = useState<BalanceView | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [payout, setPayout] = useState('');
  const [check, setCheck] = useState<PayoutCheckView | null>(null);
  const [checkError, setCheckError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const refresh = useCallback(async () => {
    setLoading(true);
    const result = await bridge.getBalance({});
    setLoading(false);
    if (result.ok) {
      setBalance(result.value);
      setError(null);
    } else {
      setError(balanceErrorWords(result.error));
    }
  }, [bridge]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  async function checkPayout(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (checking) return;
    if (!payout.trim()) {
      setCheckError('Enter the payout total');
      setCheck(null);
      return;
    }
    setChecking(true);
    setCheckError(null);
    const result = await bridge.checkPayout({ amount: payout.trim() });
    setChecking(false);
    if (result.ok) {
      setCheck(result.value);
    } else {
      setCheck(null);
      setCheckError(balanceErrorWords(result.error));
    }
  }

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
            onChange={(event) => {
              setPayout(event.target.value);
              setCheck(null);
            }}
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
