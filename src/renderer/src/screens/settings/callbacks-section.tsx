import { useState } from 'react';
import type { ConfiguredCallbackMode, Settings } from '#shared/settings-schema';
import type {
  CallbackHealthView,
  SecretStatusView,
  SettingsView,
  TunnelStatusView,
} from '#shared/views';
import type { CallbackStatus } from '../../components/header';
import { formatTime } from '../../format';
import { ActionRow, SaveRow, TextField } from './fields';
import { SecretInput } from './secrets';
import {
  NGROK_AUTHTOKEN,
  NGROK_PASSWORD,
  useCallbackActions,
  useCallbacksForm,
} from './use-callbacks';
import type { SecretKey } from './use-settings-data';
import { settingLabel } from '#shared/settings/registry';

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
    label: "The shop's own address",
    words: "For a shop whose own server or router forwards the provider's calls to this till.",
  },
  {
    mode: 'polling-only',
    label: 'Polling only',
    words: 'No callbacks: while a sale waits, the app asks the bank every few seconds.',
  },
];

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
  secretStatus,
  onSecretChanged,
  onSaved,
  onRotated,
}: {
  readonly view: SettingsView;
  readonly callback: CallbackStatus | null;
  readonly health: CallbackHealthView | null;
  /** The self-test answered with the health after it. */
  readonly onHealth: (health: CallbackHealthView) => void;
  readonly secretStatus: (key: SecretKey) => SecretStatusView | null;
  readonly onSecretChanged: (key: SecretKey, status: SecretStatusView) => void;
  readonly onSaved: (view: SettingsView) => void;
  /** The callback address changed: read the settings view again. */
  readonly onRotated: () => Promise<void>;
}) {
  return (
    <section className="panel settings-section callbacks" aria-labelledby="callbacks-heading">
      <h3 id="callbacks-heading">Payment callbacks</h3>
      <CallbacksNow
        view={view}
        callback={callback}
        health={health}
        onHealth={onHealth}
        onRotated={onRotated}
      />
      <CallbacksForm
        settings={view.settings}
        secretStatus={secretStatus}
        onSecretChanged={onSecretChanged}
        onSaved={onSaved}
      />
    </section>
  );
}

/** Where callbacks stand now, with the two actions that act at once: test and rotate. */
function CallbacksNow(props: {
  readonly view: SettingsView;
  readonly callback: CallbackStatus | null;
  readonly health: CallbackHealthView | null;
  readonly onHealth: (health: CallbackHealthView) => void;
  readonly onRotated: () => Promise<void>;
}) {
  const { view, callback, health } = props;
  const actions = useCallbackActions(props.onHealth, props.onRotated);
  const lastTest = health?.lastSelfTest ?? null;
  const timeZone = view.settings.timeZone;
  const testing = actions.testing || health?.selfTestRunning === true;
  return (
    <div className="callback-now" role="group" aria-label="Callbacks now">
      {callback && (
        <p className={`tunnel-status tunnel-${callback.tunnel.state}`} data-testid="tunnel-status">
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
      <ActionRow label="Test callbacks" disabled={testing} onClick={() => void actions.test()}>
        Sends a test to this till&apos;s own callback address, the way the provider would, and shows
        whether it came back.
      </ActionRow>
      {testing && <p role="status">Testing the callback address…</p>}
      {lastTest && !actions.testing && (
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
      <Alert text={actions.testError} />
      <ActionRow
        label="Rotate callback address"
        disabled={actions.rotating}
        onClick={() => void actions.rotate()}
      >
        Makes a new secret address for callbacks; the old one keeps working for a day.
      </ActionRow>
      {actions.rotateNotice && (
        <p className="saved-notice" role="status">
          {actions.rotateNotice}
        </p>
      )}
      <Alert text={actions.rotateError} />
    </div>
  );
}

function Alert({ text }: { readonly text: string | null }) {
  return text ? (
    <p className="error" role="alert">
      {text}
    </p>
  ) : null;
}

/** How the provider reaches this till, and the ngrok secrets: one form, one Save. */
function CallbacksForm(props: {
  readonly settings: Settings;
  readonly secretStatus: (key: SecretKey) => SecretStatusView | null;
  readonly onSecretChanged: (key: SecretKey, status: SecretStatusView) => void;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const form = useCallbacksForm(props.settings, props.onSaved, props.onSecretChanged);
  const { draft, change, section, secrets } = form;
  return (
    <>
      <fieldset className="radio-list">
        <legend>{settingLabel('callbacks.mode')}</legend>
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
      <CallbacksFields form={form} />
      {draft.mode === 'ngrok' && (
        <div className="keys field-grid">
          <SecretInput
            target={NGROK_AUTHTOKEN}
            drafts={secrets}
            status={props.secretStatus('global.ngrokAuthtoken')}
            hint="From the ngrok dashboard (Your Authtoken); one token serves every environment."
          />
          <SecretInput
            target={NGROK_PASSWORD}
            drafts={secrets}
            status={props.secretStatus('global.ngrokBasicAuthPassword')}
          />
        </div>
      )}
      <SaveRow section={section} label="Save callback settings" />
    </>
  );
}

function CallbacksFields({ form }: { readonly form: ReturnType<typeof useCallbacksForm> }) {
  const { draft, change, section, cidrProblems } = form;
  return (
    <div className="field-grid">
      {draft.mode === 'public-url' && (
        <TextField
          section={section}
          field="callbacks.publicUrl"
          value={draft.publicUrl}
          onChange={(value) => change('publicUrl', value)}
        />
      )}
      {draft.mode !== 'polling-only' && (
        <TextField
          section={section}
          field="callbacks.listenerPort"
          value={draft.listenerPort}
          onChange={(value) => change('listenerPort', value)}
        />
      )}
      {draft.mode === 'ngrok' && (
        <>
          <TextField
            section={section}
            field="callbacks.ngrokDomain"
            value={draft.ngrokDomain}
            onChange={(value) => change('ngrokDomain', value)}
          />
          <TextField
            section={section}
            field="callbacks.ngrokAllowCidrs"
            multiline
            extraError={cidrProblems || undefined}
            value={draft.allowCidrs}
            onChange={(value) => change('allowCidrs', value)}
          />
          <TextField
            section={section}
            field="callbacks.ngrokBasicAuthUser"
            value={draft.basicAuthUser}
            onChange={(value) => change('basicAuthUser', value)}
          />
        </>
      )}
    </div>
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
