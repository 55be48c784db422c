import { useState, type FormEvent } from 'react';
import type { SessionView } from '#shared/bridge/contract';
import { OwnerUnlock } from '../../components/owner-unlock';
import { PinField } from '../../components/pin-field';
import { useSignIn } from './use-sign-in';

/**
 * The counter before anyone signed in (an owner PIN is set): a cashier picks their name (and
 * types their PIN when the owner asks for them), or the owner unlocks.
 */
export function SignInScreen({ session }: { readonly session: SessionView }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  const { busy, error, showError: setError, signIn: send } = useSignIn();
  const [ownerOpen, setOwnerOpen] = useState(session.cashiers.length === 0);

  async function signIn(name: string, withPin?: string): Promise<void> {
    if (busy) return;
    await send(name, withPin);
    setPin('');
  }

  function choose(name: string): void {
    setError(null);
    setPin('');
    if (session.cashierPinsRequired) setChosen(name);
    else void signIn(name);
  }

  function submitPin(event: FormEvent): void {
    event.preventDefault();
    if (chosen === null) return;
    if (!pin) {
      setError(`Enter ${chosen}'s PIN`);
      return;
    }
    void signIn(chosen, pin);
  }

  return (
    <section className="screen sign-in" aria-labelledby="sign-in-heading">
      <h2 id="sign-in-heading">Sign in</h2>
      {session.cashiers.length === 0 ? (
        <p className="muted">
          No cashiers are set up yet. The owner unlocks the till and adds them in Settings.
        </p>
      ) : (
        <section className="panel" aria-labelledby="who-heading">
          <h3 id="who-heading">Who is at this till?</h3>
          <ul className="cashier-choices">
            {session.cashiers.map((cashier) => (
              <li key={cashier.name}>
                <button
                  type="button"
                  className={`button big ${chosen === cashier.name ? 'primary' : 'secondary'}`}
                  aria-pressed={session.cashierPinsRequired ? chosen === cashier.name : undefined}
                  disabled={busy}
                  onClick={() => choose(cashier.name)}
                >
                  {cashier.name}
                </button>
              </li>
            ))}
          </ul>
          {chosen !== null && (
            <form className="cashier-pin" onSubmit={submitPin} noValidate>
              <PinField
                label={`PIN for ${chosen}`}
                value={pin}
                onChange={(value) => {
                  setPin(value);
                  setError(null);
                }}
                error={error}
                autoFocus
              />
              <button type="submit" className="button primary" disabled={busy}>
                Sign in
              </button>
            </form>
          )}
          {chosen === null && error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
        </section>
      )}

      <section className="panel" aria-labelledby="owner-heading">
        <h3 id="owner-heading">Owner</h3>
        {ownerOpen ? (
          <OwnerUnlock autoFocus={session.cashiers.length > 0} />
        ) : (
          <button type="button" className="button secondary" onClick={() => setOwnerOpen(true)}>
            Owner unlock
          </button>
        )}
      </section>
    </section>
  );
}
