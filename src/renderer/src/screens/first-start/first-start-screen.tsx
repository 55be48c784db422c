import { useId, useState, type FormEvent } from 'react';
import { OwnerUnlock } from '../../components/owner-unlock';
import { hrefOf } from '../../routes';
import './first-start.css';
import { useShopName } from './use-first-start';

/**
 * A fresh till's first screen, before the first sale: the shop's name (main makes it the name
 * on the accounts sales create), then how to start (practise, or connect the provider).
 */
export function FirstStartScreen({
  onNamed,
  onDone,
}: {
  /** Main has the name: the shell reads its status again (this screen stays for step two). */
  readonly onNamed: () => void;
  /** The owner chose how to start: the shell shows the sale screen, or Settings. */
  readonly onDone: () => void;
}) {
  const [named, setNamed] = useState<string | null>(null);
  if (named === null) {
    return (
      <NameStep
        onSaved={(name) => {
          setNamed(name);
          onNamed();
        }}
      />
    );
  }
  return <StartStep name={named} onDone={onDone} />;
}

function NameStep({ onSaved }: { readonly onSaved: (name: string) => void }) {
  const [name, setName] = useState('');
  const { busy, error, save: send } = useShopName();
  const errorId = `${useId()}-error`;

  async function save(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (busy) return;
    const saved = await send(name);
    if (saved !== null) onSaved(saved);
  }

  const shown = name.trim();
  return (
    <section className="screen first-start" aria-labelledby="first-start-heading">
      <h2 id="first-start-heading">What will customers see?</h2>
      <p className="first-start-intro">
        The shop&apos;s name goes to the provider as the name of every account your sales create.
      </p>
      <form className="first-start-form" onSubmit={(event) => void save(event)} noValidate>
        <label className="field">
          Your shop&apos;s name
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            autoComplete="organization"
            autoFocus
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
        </label>
        {error && (
          <p id={errorId} className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="bank-preview">
          <p className="field-hint">
            Your customer&apos;s bank app shows the account name, for example:
          </p>
          <p className="bank-preview-line" data-testid="account-name-preview">
            Account name: <strong>{shown === '' ? '…' : shown}</strong>
          </p>
          <p className="field-hint">Each bank app shows it in its own way.</p>
        </div>
        <button type="submit" className="button primary big" disabled={busy}>
          Continue
        </button>
      </form>
    </section>
  );
}

/** The first start's second step: practise on the sandbox, or connect the shop's provider. */
function StartStep({ name, onDone }: { readonly name: string; readonly onDone: () => void }) {
  return (
    <section className="screen first-start" aria-labelledby="first-start-heading">
      <h2 id="first-start-heading">How do you want to start?</h2>
      <p className="first-start-named" role="status">
        ✓ Customers see the account name <strong>{name}</strong>. You can change it in Settings →
        Shop.
      </p>
      <p>
        Practise first: the sandbox is a pretend provider on this computer, so no real money moves.
        When the provider has given you your keys, connect it in one go.
      </p>
      <div className="first-start-choices">
        <button type="button" className="button primary big" onClick={onDone}>
          Practise with the sandbox
        </button>
        <button
          type="button"
          className="button secondary big"
          onClick={() => {
            onDone();
            window.location.hash = `${hrefOf('settings')}/connect`;
          }}
        >
          Connect my provider
        </button>
      </div>
    </section>
  );
}

/**
 * A fresh till opened by a cashier or a paired counter: only the owner gives the shop's name
 * (main refuses anyone else), so this says who, and offers the owner unlock at the till.
 */
export function ShopNameAwaited({ atCounter }: { readonly atCounter: boolean }) {
  return (
    <section className="screen first-start" aria-labelledby="first-start-heading">
      <h2 id="first-start-heading">What will customers see?</h2>
      <p className="first-start-intro">
        Before the first sale, the owner gives the shop&apos;s name: it is the name of every account
        your sales create.
      </p>
      {atCounter ? (
        <p data-testid="shop-name-awaited">Ask the owner to give it at the hub.</p>
      ) : (
        <OwnerUnlock intro="Enter the owner PIN to give it." />
      )}
    </section>
  );
}
