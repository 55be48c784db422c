import { useState } from 'react';
import type { ConfiguredCallbackMode, Settings } from '#shared/settings-schema';
import type {
  CallbackHealthView,
  SecretStatusView,
  SettingsView,
  TunnelStatusView,
} from '#shared/views';
import { useBridge } from '../../bridge-context';
import type { CallbackStatus } from '../../components/header';
import { cashierMessage } from '../../errors';
import { formatTime } from '../../format';
import { SaveRow, TextField } from './fields';
import { SecretField } from './secrets';
import { parseNumber, useSettingsSection } from './settings-form';

const MODES: readonly {
  readonly mode: ConfiguredCallbackMode;
  readonly label: string;
  readonly words: string;
}[] = [
  {
    mode: 'ngrok',
    label: 'ngrok tunnel',
    words: 'The app opens a secure tunnel so that the provider can reach this till (recommended).',
  },
  {
    mode: 'public-url',
    label: 'Our own public URL',
    words: "For a shop whose own server or router forwards the provider's calls to this till.",
  },
  {
    mode: 'polling-only',
    label: 'Polling only',
    words: 'No callbacks: while a sale waits, the app asks the bank every few seconds.',
  },
];

interface CallbacksDraft {
  readonly mode: ConfiguredCallbackMode;
  readonly publicUrl: string;
  readonly listenerPort: string;
  readonly ngrokDomain: string;
  readonly allowCidrs: string;
  readonly basicAuthUser: string;
}

function draftOf(callbacks: Settings['callbacks']): CallbacksDraft {
  return {
    mode: callbacks.mode,
    publicUrl: callbacks.publicUrl,
    listenerPort: String(callbacks.listenerPort),
    ngrokDomain: callbacks.ngrokDomain,
    allowCidrs: callbacks.ngrokAllowCidrs.join('\n'),
    basicAuthUser: callbacks.ngrokBasicAuthUser,
  };
}

/** One range a line; blank lines are only spacing. */
function linesOf(text: string): readonly string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export function tunnelWords(callback: CallbackStatus): string {
  if (callback.mode === 'local-sandbox') {
    return 'Not needed: the built-in sandbox calls this till directly.';
  }
  return tunnelStateWords(callback.tunnel);
}

function tunnelStateWords(tunnel: TunnelStatusView): string {
  switch (tunnel.state) {
    case 'off':
      return 'Tunnel off';
    case 'connecting':
      return 'Tunnel connecting…';
    case 'online':
      return `Tunnel online at ${tunnel.url}`;
    case 'error': {
      const retry =
        tunnel.retryInMs !== undefined
          ? ` Trying again in ${Math.ceil(tunnel.retryInMs / 1000)} s.`
          : '';
      return `Tunnel error: ${tunnel.message}${retry}`;
    }
  }
}

/** The callback health in a sentence for the settings screen. */
export function healthWords(health: CallbackHealthView, timeZone: string): string {
  switch (health.state) {
    case 'live': {
      const proof = health.lastProof;
      const how = proof?.kind === 'callback' ? 'a real callback' : 'a self-test';
      return proof
        ? `Callbacks live: proven by ${how} at ${formatTime(proof.at, timeZone)}.`
        : 'Callbacks live.';
    }
    case 'unproven':
      return `Callbacks not proven yet.${health.cause ? ` ${health.cause}` : ''}`;
    case 'not_reaching':
      return `Callbacks are not reaching this till.${health.cause ? ` ${health.cause}` : ''}`;
    case 'off':
      return 'No callbacks (polling only): the till checks every open sale with the bank.';
  }
}

export function CallbacksSection({
  view,
  callback,
  health,
  onHealth,
  ngrokAuthtoken,
  onNgrokAuthtokenChanged,
  ngrokBasicAuthPassword,
  onNgrokBasicAuthPasswordChanged,
  onSaved,
  onRotated,
}: {
  readonly view: SettingsView;
  readonly callback: CallbackStatus | null;
  readonly health: CallbackHealthView | null;
  /** The self-test answered with the health after it. */
  readonly onHealth: (health: CallbackHealthView) => void;
  readonly ngrokAuthtoken: SecretStatusView | null;
  readonly onNgrokAuthtokenChanged: (status: SecretStatusView) => void;
  readonly ngrokBasicAuthPassword: SecretStatusView | null;
  readonly onNgrokBasicAuthPasswordChanged: (status: SecretStatusView) => void;
  readonly onSaved: (view: SettingsView) => void;
  /** The callback address changed: read the settings view again. */
  readonly onRotated: () => Promise<void>;
}) {
  const bridge = useBridge();
  const { settings } = view;
  const [draft, setDraft] = useState<CallbacksDraft>(() => draftOf(settings.callbacks));
  const [rotating, setRotating] = useState(false);
  const [rotateNotice, setRotateNotice] = useState<string | null>(null);
  const [rotateError, setRotateError] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [testError, setTestError] = useState<string | null>(null);

  const cidrs = linesOf(draft.allowCidrs);
  const port = parseNumber(draft.listenerPort);
  const section = useSettingsSection({
    settings,
    patch: {
      callbacks: {
        mode: draft.mode,
        publicUrl: draft.publicUrl,
        ngrokDomain: draft.ngrokDomain,
        ngrokAllowCidrs: cidrs,
        ngrokBasicAuthUser: draft.basicAuthUser,
        ...(port === null ? {} : { listenerPort: port }),
      },
    },
    localErrors:
      port === null
        ? { 'callbacks.listenerPort': 'Enter a port number (0 for any free port)' }
        : {},
    fields: [
      'callbacks.mode',
      'callbacks.publicUrl',
      'callbacks.listenerPort',
      'callbacks.ngrokDomain',
      'callbacks.ngrokAllowCidrs',
      'callbacks.ngrokBasicAuthUser',
    ],
    onSaved: (saved) => {
      setDraft(draftOf(saved.settings.callbacks));
      onSaved(saved);
    },
  });
  const cidrProblems = section
    .itemErrorsOf('callbacks.ngrokAllowCidrs')
    .map(({ index, message }) => `"${cidrs[index] ?? `line ${index + 1}`}": ${message}`)
    .join(' ');

  function change<K extends keyof CallbacksDraft>(key: K, value: CallbacksDraft[K]): void {
    setDraft((current) => ({ ...current, [key]: value }));
  }

  async function rotate(): Promise<void> {
    setRotating(true);
    setRotateNotice(null);
    setRotateError(null);
    const result = await bridge.rotateCallbackToken({});
    setRotating(false);
    if (!result.ok) {
      setRotateError(cashierMessage(result.error));
      return;
    }
    setRotateNotice(
      'New sales now get a new callback address. The old address keeps working for a day, so sales already waiting still get their callbacks.',
    );
    await onRotated();
  }

  async function testCallbacks(): Promise<void> {
    setTesting(true);
    setTestError(null);
    const result = await bridge.testCallbacks({});
    setTesting(false);
    if (result.ok) onHealth(result.value);
    else setTestError(cashierMessage(result.error));
  }

  const lastTest = health?.lastSelfTest ?? null;
  const timeZone = settings.timeZone;

  return (
    <section className="panel settings-section callbacks" aria-labelledby="callbacks-heading">
      <h3 id="callbacks-heading">Payment callbacks</h3>

      <div className="callback-now" role="group" aria-label="Callbacks now">
        {callback && (
          <p
            className={`tunnel-status tunnel-${callback.tunnel.state}`}
            data-testid="tunnel-status"
          >
            {tunnelWords(callback)}
          </p>
        )}
        {view.callbackUrl ? (
          <MaskedCallbackUrl url={view.callbackUrl} />
        ) : (
          <p className="warning-text" data-testid="callback-problem">
            Polling only: {view.callbackProblem ?? 'no callback address is available.'}
          </p>
        )}
        {health && (
          <p className={`callback-health health-${health.state}`} data-testid="callback-health">
            {healthWords(health, timeZone)}
          </p>
        )}
        <div className="save-row">
          <button
            type="button"
            className="button secondary"
            disabled={testing || health?.selfTestRunning === true}
            onClick={() => void testCallbacks()}
          >
            Test callbacks
          </button>
          <span className="muted">
            Sends a test to this till&apos;s own callback address, the way the provider would, and
            shows whether it came back.
          </span>
        </div>
        {(testing || health?.selfTestRunning === true) && (
          <p role="status">Testing the callback address…</p>
        )}
        {lastTest && !testing && (
          <p
            aria-live="polite"
            className={lastTest.passed ? 'saved-notice' : 'warning-text'}
            data-testid="self-test-result"
          >
            {lastTest.passed ? 'Self-test passed' : 'Self-test failed'} at{' '}
            {formatTime(lastTest.at, timeZone)}: {lastTest.detail}
            {lastTest.action ? ` ${lastTest.action}` : ''}
          </p>
        )}
        {testError && (
          <p className="error" role="alert">
            {testError}
          </p>
        )}
        <div className="save-row">
          <button
            type="button"
            className="button secondary"
            disabled={rotating}
            onClick={() => void rotate()}
          >
            Rotate callback address
          </button>
          <span className="muted">
            Makes a new secret address for callbacks; the old one keeps working for a day.
          </span>
        </div>
        {rotateNotice && (
          <p className="saved-notice" role="status">
            {rotateNotice}
          </p>
        )}
        {rotateError && (
          <p className="error" role="alert">
            {rotateError}
          </p>
        )}
      </div>

      <fieldset className="radio-list">
        <legend>How the provider reaches this till</legend>
        {MODES.map((option) => (
          <label key={option.mode} className="radio">
            <input
              type="radio"
              name="callback-mode"
              value={option.mode}
              checked={draft.mode === option.mode}
              onChange={() => {
                change('mode', option.mode);
                section.edited('callbacks.mode');
              }}
            />
            <span>
              <strong>{option.label}</strong> — {option.words}
            </span>
          </label>
        ))}
      </fieldset>

      <div className="field-grid">
        {draft.mode === 'public-url' && (
          <TextField
            section={section}
            field="callbacks.publicUrl"
            label="Public URL"
            type="url"
            inputMode="url"
            hint="The https:// address on the internet that forwards to this till's listener."
            value={draft.publicUrl}
            onChange={(value) => change('publicUrl', value)}
          />
        )}
        {draft.mode !== 'polling-only' && (
          <TextField
            section={section}
            field="callbacks.listenerPort"
            label="Listener port"
            inputMode="numeric"
            hint="The port this till listens on for callbacks; 0 picks any free port. Applies when saved: the listener moves at once, and a port another program holds is refused."
            value={draft.listenerPort}
            onChange={(value) => change('listenerPort', value)}
          />
        )}
        {draft.mode === 'ngrok' && (
          <>
            <TextField
              section={section}
              field="callbacks.ngrokDomain"
              label="ngrok reserved domain"
              hint="Recommended: a reserved domain (e.g. my-shop.ngrok.app) keeps the callback address fixed across restarts. Empty means a new random address at every start."
              value={draft.ngrokDomain}
              onChange={(value) => change('ngrokDomain', value)}
            />
            <TextField
              section={section}
              field="callbacks.ngrokAllowCidrs"
              label="Allowed IP ranges"
              multiline
              hint="One address or range a line, e.g. 102.89.0.0/16. Only these may call the tunnel; empty allows everyone."
              extraError={cidrProblems || undefined}
              value={draft.allowCidrs}
              onChange={(value) => change('allowCidrs', value)}
            />
            <TextField
              section={section}
              field="callbacks.ngrokBasicAuthUser"
              label="Basic-auth user (optional)"
              hint="With a password below, ngrok asks every caller for this user and password. Only if your provider can send them."
              value={draft.basicAuthUser}
              onChange={(value) => change('basicAuthUser', value)}
            />
          </>
        )}
      </div>
      <SaveRow section={section} label="Save callback settings" />

      {draft.mode === 'ngrok' && (
        <div className="keys">
          <SecretField
            target={{ scope: 'global', name: 'ngrokAuthtoken' }}
            label="ngrok authtoken"
            saveLabel="Save token"
            status={ngrokAuthtoken}
            onChanged={onNgrokAuthtokenChanged}
          />
          <p className="muted">
            From the ngrok dashboard (Your Authtoken). One token serves every environment.
          </p>
          <SecretField
            target={{ scope: 'global', name: 'ngrokBasicAuthPassword' }}
            label="Basic-auth password (optional)"
            saveLabel="Save password"
            status={ngrokBasicAuthPassword}
            onChanged={onNgrokBasicAuthPasswordChanged}
          />
        </div>
      )}
    </section>
  );
}

/** The callback address's secret path token, hidden behind ••• until the owner asks to see it. */
export function maskCallbackUrl(url: string): string {
  return url.replace(/\/callbacks\/[^/?#]+/, '/callbacks/••••••••');
}

function MaskedCallbackUrl({ url }: { readonly url: string }) {
  const [shown, setShown] = useState(false);
  return (
    <p className="callback-url-row">
      Callback address given to the provider:{' '}
      <span className="mono" data-testid="callback-url">
        {shown ? url : maskCallbackUrl(url)}
      </span>{' '}
      <button
        type="button"
        className="button link"
        aria-pressed={shown}
        onClick={() => setShown((current) => !current)}
      >
        {shown ? 'Hide the secret part' : 'Show the whole address'}
      </button>
    </p>
  );
}
