import { useId, useState } from 'react';
import type { ChannelInput } from '#shared/bridge/contract';
import type { KeyedEnvironment } from '#shared/settings-schema';
import type {
  ConnectionCheckView,
  SecretBoxKindView,
  SecretStatusView,
  SecretsView,
} from '#shared/views';
import { useBridge } from '../../bridge-context';
import { cashierMessage } from '../../errors';
import { describedBy } from './fields';

/** Which secret: one of an environment's two keys, or the one global ngrok authtoken. */
export type SecretTarget =
  | { readonly scope: KeyedEnvironment; readonly name: 'secretKey' | 'accessToken' }
  | { readonly scope: 'global'; readonly name: 'ngrokAuthtoken' | 'ngrokBasicAuthPassword' };

/** All the screen says about a secret: never the secret, at most its last four characters. */
export function secretStatusWords(status: SecretStatusView): string {
  if (status.problem) return status.problem;
  if (!status.set) return 'Not set';
  return status.last4 ? `Set, ends in ${status.last4}` : 'Set';
}

/**
 * A password field that sends a secret and forgets it: the typed value is cleared once saved, and
 * only the status ever comes back.
 */
export function SecretField({
  target,
  label,
  saveLabel,
  status,
  onChanged,
}: {
  readonly target: SecretTarget;
  readonly label: string;
  readonly saveLabel: string;
  readonly status: SecretStatusView | null;
  readonly onChanged: (status: SecretStatusView) => void;
}) {
  const bridge = useBridge();
  const id = useId();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const statusId = `${id}-status`;
  const errorId = `${id}-error`;

  async function send(next: string | null): Promise<void> {
    setBusy(true);
    setError(null);
    setNotice(null);
    const result = await bridge.setSecret({ ...target, value: next });
    setBusy(false);
    setConfirmingRemove(false);
    // Whatever happened, the typed secret does not stay on the screen.
    setValue('');
    if (!result.ok) {
      setError(cashierMessage(result.error));
      return;
    }
    setNotice(next === null ? 'Removed.' : 'Saved.');
    onChanged(result.value);
  }

  function save(): void {
    const trimmed = value.trim();
    if (trimmed === '') {
      setError(`Type or paste the ${label.toLowerCase()} first.`);
      return;
    }
    void send(trimmed);
  }

  return (
    <div className="secret-field" role="group" aria-labelledby={`${id}-label`}>
      <label id={`${id}-label`} htmlFor={id}>
        {label}
      </label>
      <p
        id={statusId}
        className={`secret-status ${status?.problem ? 'secret-problem' : status?.set ? 'secret-set' : 'secret-unset'}`}
        data-testid="secret-status"
      >
        {status ? secretStatusWords(status) : 'Checking…'}
      </p>
      <div className="secret-row">
        <input
          id={id}
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          value={value}
          aria-invalid={error !== null}
          aria-describedby={describedBy(statusId, error && errorId)}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
            setNotice(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              save();
            }
          }}
        />
        <button type="button" className="button primary" disabled={busy} onClick={save}>
          {saveLabel}
        </button>
        <button
          type="button"
          className="button danger"
          disabled={busy || !status?.set}
          onClick={() => setConfirmingRemove(true)}
        >
          Remove
        </button>
      </div>
      {confirmingRemove && (
        <div className="confirm" role="group" aria-label={`Remove the ${label.toLowerCase()}?`}>
          <p>
            Remove the {label.toLowerCase()}? The till cannot use this environment until it is
            entered again.
          </p>
          <button type="button" className="button danger" onClick={() => void send(null)}>
            Yes, remove it
          </button>
          <button
            type="button"
            className="button secondary"
            onClick={() => setConfirmingRemove(false)}
          >
            No, keep it
          </button>
        </div>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="saved-notice" role="status">
          {notice}
        </p>
      )}
    </div>
  );
}

const BOX_WORDS: Readonly<Record<SecretBoxKindView, string>> = {
  'os-keychain': "Secrets are encrypted with this computer's keyring.",
  'os-plaintext-fallback':
    "This computer's keyring is not available: secrets are stored with basic protection only.",
  'file-key': 'Secrets are protected by a key file in the data folder (browser shell).',
};

/** How the secrets are kept on this computer; a weak keeping is a warning, not a footnote. */
export function SecretBoxNotice({ box }: { readonly box: SecretsView['box'] }) {
  const warn = box.kind !== 'os-keychain';
  return (
    <div
      className={`box-notice ${warn ? 'box-warning' : 'box-fine'}`}
      data-testid="secret-box"
      role={box.kind === 'os-plaintext-fallback' ? 'alert' : undefined}
    >
      <p className="box-words">{BOX_WORDS[box.kind]}</p>
      {box.description && box.description !== BOX_WORDS[box.kind] && (
        <p className="muted">{box.description}</p>
      )}
    </div>
  );
}

const CHECK_LABELS: Readonly<Record<ConnectionCheckView['check'], string>> = {
  transactions: 'Transactions',
  balance: 'Balance',
};

/** "Test connection": a harmless read of each service, one line each, with what to do. */
export function ConnectionTest({
  environment,
  label,
}: {
  readonly environment: ChannelInput<'testConnection'>['environment'];
  readonly label: string;
}) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<readonly ConnectionCheckView[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(): Promise<void> {
    setBusy(true);
    setError(null);
    setResults(null);
    const result = await bridge.testConnection({ environment });
    setBusy(false);
    if (result.ok) setResults(result.value);
    else setError(cashierMessage(result.error));
  }

  return (
    <div className="connection-test">
      <button
        type="button"
        className="button secondary"
        disabled={busy}
        aria-label={`Test connection (${label})`}
        onClick={() => void run()}
      >
        Test connection
      </button>
      {busy && (
        <p className="progress-text" role="status">
          Asking the provider…
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {results && (
        <ul className="check-results" aria-label={`Connection test results (${label})`}>
          {results.map((check) => (
            <li
              key={check.check}
              className={`check-result ${check.ok ? 'check-ok' : 'check-failed'}`}
              data-testid={`check-${check.check}`}
            >
              <span className="check-name">{CHECK_LABELS[check.check]}:</span>{' '}
              <strong>{check.ok ? 'OK' : 'Failed'}</strong> — {check.message}
              {check.advice && <span className="check-advice"> {check.advice}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
