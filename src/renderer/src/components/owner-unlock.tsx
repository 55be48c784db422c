import { useId, useState, type FormEvent } from 'react';
import { PinField } from './pin-field';
import { useOwnerUnlock } from './use-header-calls';
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
  const [pin, setPin] = useState('');
  const { busy, error, showError, unlock } = useOwnerUnlock();
  const problemId = `${useId()}-problem`;

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (busy) return;
    if (!pin) {
      showError('Enter the owner PIN');
      return;
    }
    const unlocked = await unlock(pin);
    setPin('');
    if (unlocked) onUnlocked?.();
  }

  return (
    <form className="owner-unlock" onSubmit={(event) => void submit(event)} noValidate>
      {intro && <p>{intro}</p>}
      <PinField
        label="Owner PIN"
        value={pin}
        onChange={(value) => {
          setPin(value);
          showError(null);
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
