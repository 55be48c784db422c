import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { BridgeError } from '#shared/bridge/contract';
import type { BalanceView, PayoutCheckView } from '#shared/views';
import { failureOf, useBridgeCall } from '../../hooks/use-bridge-call';

/** Balance errors name the likely cause and what the manager should do about it. */
export function balanceErrorWords(error: BridgeError): string {
  switch (error.code) {
    case 'PROVIDER_AUTH_REFUSED':
      return 'The provider refused our access token: it may have expired or be wrong. Ask the manager to enter a new token in Settings.';
    case 'NOT_FOUND':
      return 'The provider does not know the payout account id. Ask the manager to check the payout account in Settings.';
    case 'NETWORK':
    case 'TIMEOUT':
      return 'The bank\'s service cannot be reached. Check the internet connection, then press "Refresh".';
    default:
      return failureOf(error).words;
  }
}

export interface BalanceRead {
  readonly balance: BalanceView | null;
  readonly loading: boolean;
  readonly error: string | null;
  readonly refresh: () => Promise<void>;
}

/** The payout balance, asked for when the screen opens and again on Refresh. */
export function useBalance(): BalanceRead {
  const { run } = useBridgeCall<BalanceView>();
  const [balance, setBalance] = useState<BalanceView | null>(null);
  // The screen opens asking.
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const read = useCallback(async () => {
    const result = await run((bridge) => bridge.getBalance({}));
    if (!result) return;
    setLoading(false);
    if (result.ok) {
      setBalance(result.value);
      setError(null);
    } else {
      setError(balanceErrorWords(result.error));
    }
  }, [run]);

  const refresh = useCallback(async () => {
    setLoading(true);
    await read();
  }, [read]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- read sets state only after an await (a known false positive: facebook/react#34905).
    void read();
  }, [read]);

  return { balance, loading, error, refresh };
}

export interface PayoutCheck {
  readonly payout: string;
  /** The total was edited: the last answer no longer applies. */
  readonly editPayout: (text: string) => void;
  readonly check: PayoutCheckView | null;
  readonly checkError: string | null;
  readonly checking: boolean;
  readonly checkPayout: (event: FormEvent) => Promise<void>;
}

/** "Before a payout": whether the balance covers a payout total. */
export function usePayoutCheck(): PayoutCheck {
  const { run } = useBridgeCall<PayoutCheckView>();
  const [payout, setPayout] = useState('');
  const [check, setCheck] = useState<PayoutCheckView | null>(null);
  const [checkError, setCheckError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  function editPayout(text: string): void {
    setPayout(text);
    setCheck(null);
  }

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
    const result = await run((bridge) => bridge.checkPayout({ amount: payout.trim() }));
    if (!result) return;
    setChecking(false);
    if (result.ok) {
      setCheck(result.value);
    } else {
      setCheck(null);
      setCheckError(balanceErrorWords(result.error));
    }
  }

  return { payout, editPayout, check, checkError, checking, checkPayout };
}
