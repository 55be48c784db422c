import { useId, useState } from 'react';
import type { ChannelInput } from '#shared/bridge/contract';
import type {
  ConnectionCheckView,
  SecretBoxKindView,
  SecretStatusView,
  SecretsView,
} from '#shared/views';
import { describedBy } from './fields';
import { useConnectionTest } from './use-connection-test';
import { keyLabelInText } from '#shared/settings/key-labels';
import { secretKeyOf, type SecretDrafts, type SecretTarget } from './use-secret-drafts';

/** All the screen says about a secret: never the secret, at most its last four characters. */
export function secretStatusWords(status: SecretStatusView): string {
  if (status.problem) return status.problem;
  if (!status.set) return 'Not set';
  return status.last4 ? `Set, ends in ${status.last4}` : 'Set';
}

/**
 * A password field for a secret, saved by its page's one Save: what is typed goes to main and
 * leaves the screen; only the status ever comes back. Removing a saved one asks first.
 */
export function SecretInput({
  target,
  drafts,
  status,
  hint,
}: {
  readonly target: SecretTarget;
  readonly drafts: SecretDrafts;
  readonly status: SecretStatusView | null;
  readonly hint?: string;
}) {
  const id = useId();
  const key = secretKeyOf(target);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const error = drafts.errorOf(key);
  const notice = drafts.noticeOf(key);
  const statusId = `${id}-status`;
  const errorId = `${id}-error`;
  // Mid-sentence words: 'Remove the ngrok basic-auth password?', not '… password (optional)?'.
  const label = keyLabelInText(target.name);
  return (
    <div
      className={`secret-field field ${error ? 'field-invalid' : ''}`}
      role="group"
      aria-labelledby={`${id}-label`}
    >
      <label id={`${id}-label`} htmlFor={id}>
        {target.label}
      </label>
      <p
        id={statusId}
        className={`secret-status ${status?.problem ? 'secret-problem' : status?.set ? 'secret-set' : 'secret-unset'}`}
        data-testid="secret-status"
      >
        {status ? secretStatusWords(status) : 'Checking…'}
      </p>
      {hint && <p className="field-hint">{hint}</p>}
      <div className="secret-row">
        <input
          id={id}
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          value={drafts.valueOf(key)}
          placeholder={
            status?.set && !status.problem ? 'Leave blank to keep the saved one' : undefined
          }
          aria-invalid={error !== null}
          aria-describedby={describedBy(statusId, error && errorId)}
          onChange={(event) => drafts.type(key, event.target.value)}
        />
        <button
          type="button"
          className="button danger"
          disabled={drafts.busy || !status?.set}
          aria-label={`Remove the ${label}`}
          onClick={() => setConfirmingRemove(true)}
        >
          Remove
        </button>
      </div>
      {confirmingRemove && (
        <div className="confirm" role="group" aria-label={`Remove the ${label}?`}>
          <p>Remove the {label}? What needs it stops working until it is entered again.</p>
          <button
            type="button"
            className="button danger"
            onClick={() => {
              setConfirmingRemove(false);
              void drafts.remove(target);
            }}
          >
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
  const { busy, results, error, run } = useConnectionTest(environment);

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
