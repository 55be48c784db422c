import { useId, useState, type FormEvent } from 'react';
import { useBridge } from '../bridge-context';
import { cashierMessage } from '../errors';
import { useSession } from '../session-context';
import { PinField } from './pin-field';
import './owner-unlock.css';

/** The owner PIN form: main checks it (with its lock-out); the page only passes it on. */
export function OwnerUnlock({
  intro,
  onUnlocked,
  autoFocus,
}: {
  readonly intro?: string;
  readonly onUnlocked?: () => void;
  readonly autoFocus?: boolean;
}) {
  const bridge = useBridge();
  const { apply } = useSession();
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const problemId = `${useId()}-problem`;

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (busy) return;
    if (!pin) {
      setError('Enter the owner PIN');
      return;
    }
    setBusy(true);
    const result = await bridge.unlockOwner({ pin });
    setBusy(false);
    setPin('');
    if (!result.ok) {
      setError(cashierMessage(result.error));
      return;
    }
    setError(null);
    apply(result.value);
    onUnlocked?.();
  }

  return (
    <form className="owner-unlock" onSubmit={(event) => void submit(event)} noValidate>
      {intro && <p>{intro}</p>}
      <PinField
        label="Owner PIN"
        value={pin}
        onChange={(value) => {
          setPin(value);
          setError(null);
        }}
        error={error}
        problemId={problemId}
        autoFocus={autoFocus}
      />
      <button type="submit" className="button primary" disabled={busy}>
        Unlock
      </button>
      {/* After the button, on a light ground: readable on the dark header, and the field and
          its button stay where the fingers are. */}
      {error && (
        <p id={problemId} className="pin-problem" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
