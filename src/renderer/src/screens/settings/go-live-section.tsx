import { useId, useState, type ReactNode } from 'react';
import {
  SMALLEST_SALE_KOBO,
  TRIAL_CHOICE_LABEL,
  TRIAL_EXPIRY_MINUTES,
  type GoLiveCheckLine,
  type GoLiveCheckView,
} from '#shared/go-live';
import { formatNaira } from '#shared/money';
import {
  ENVIRONMENT_NAMES,
  KEYED_ENVIRONMENTS,
  type KeyedEnvironment,
  type Settings,
} from '#shared/settings-schema';
import { keyFieldLabel } from '#shared/settings/key-labels';
import { settingEntry, type SettingPath } from '#shared/settings/registry';
import { WHERE_KEYS_COME_FROM, type SecretStatusView, type SettingsView } from '#shared/views';
import { describedBy } from './fields';
import { addressKeyNotice, keyStatusAt, type KeyStatuses } from './keys-elsewhere';
import { secretStatusWords } from './secrets';
import { useUnsaved } from './unsaved';
import {
  draftFor,
  useGoLive,
  type CallbackChoice,
  type GoLiveDraft,
  type GoLiveState,
} from './use-go-live';

type DraftKey = keyof GoLiveDraft;

/** The form's fields that are settings: their labels and hints are their registry entries'. */
const SETTING_PATHS = {
  baseUrl: 'profiles.*.baseUrl',
  payoutBaseUrl: 'profiles.*.payoutBaseUrl',
  merchantId: 'profiles.*.merchantId',
  merchantCategory: 'profiles.*.merchantCategory',
  accountName: 'profiles.*.accountName',
  payoutAccountId: 'profiles.*.payoutAccountId',
  ngrokDomain: 'callbacks.ngrokDomain',
  publicUrl: 'callbacks.publicUrl',
  listenerPort: 'callbacks.listenerPort',
} as const satisfies Partial<Record<DraftKey, SettingPath>>;
type SettingKey = keyof typeof SETTING_PATHS;
type FieldOf = (key: DraftKey, label: string, hint: ReactNode, type?: string) => ReactNode;

/** A setting's field in the walk-through: its entry's label, and its shorter hint. */
function settingField(field: FieldOf, key: SettingKey): ReactNode {
  const entry = settingEntry(SETTING_PATHS[key]);
  return field(
    key,
    entry.label,
    entry.shortHint ?? entry.hint,
    entry.input === 'url' ? 'url' : 'text',
  );
}

const ROUTE_CHOICES: readonly { value: CallbackChoice; label: string; hint: string }[] = [
  {
    value: 'ngrok',
    label: 'ngrok tunnel',
    hint: 'Recommended: the till opens its own public address (an ngrok account authtoken is needed).',
  },
  {
    value: 'public-url',
    label: "The shop's own address",
    hint: 'Your own https address that forwards to this till (plain http only on this computer, for a rehearsal).',
  },
  {
    value: 'polling-only',
    label: 'Polling only',
    hint: 'No callbacks: the till asks about each sale itself, so "Paid" shows a little later.',
  },
];

/**
 * "Connect your provider": one environment at a time, everything it needs in one form, one
 * Save (profile and keys together; keys go to main and never come back), then "Check
 * everything", and switching to it as the last step.
 */
export function GoLiveSection({
  settings,
  onSaved,
  secretStatus,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
  /** What is saved of a key (never the key), as Settings read it. */
  readonly secretStatus: (
    environment: KeyedEnvironment,
    key: 'secretKey' | 'accessToken' | 'ngrokAuthtoken',
  ) => SecretStatusView | null;
}) {
  const id = useId();
  const [environment, setEnvironment] = useState<KeyedEnvironment>(
    settings.environment === 'production' ? 'production' : 'staging',
  );
  const [draft, setDraft] = useState<GoLiveDraft>(() => draftFor(settings, environment));
  const [confirmSwitch, setConfirmSwitch] = useState(false);
  const [trialOnLive, setTrialOnLive] = useState(false);
  const flow = useGoLive(onSaved);
  const unsaved = useUnsaved(`${id}-go-live`);
  const { state } = flow;
  const name = ENVIRONMENT_NAMES[environment];
  const inUse = settings.environment === environment;

  function change(key: DraftKey, value: string): void {
    setDraft((current) => ({ ...current, [key]: value }));
    flow.edited();
    unsaved.mark(true);
  }

  function choose(next: KeyedEnvironment): void {
    setEnvironment(next);
    setDraft(draftFor(settings, next));
    setConfirmSwitch(false);
    flow.edited();
    unsaved.mark(false);
  }

  async function save(): Promise<void> {
    if (await flow.save(environment, draft)) {
      unsaved.mark(false);
      // Keys are sent, never kept on the screen.
      setDraft((current) => ({ ...current, secretKey: '', accessToken: '', ngrokAuthtoken: '' }));
    }
  }

  function switchNow(): void {
    if (!confirmSwitch && (state.openSales > 0 || environment === 'production')) {
      setConfirmSwitch(true);
      return;
    }
    setConfirmSwitch(false);
    void flow.switchTo(environment);
  }

  const fieldProblem = (field: string) =>
    state.problem?.field &&
    (state.problem.field === field || state.problem.field.endsWith(`.${field}`))
      ? state.problem.message
      : undefined;
  const status = (key: 'secretKey' | 'accessToken' | 'ngrokAuthtoken'): SecretStatusView | null =>
    state.secrets?.[key] ?? secretStatus(environment, key);
  const keys: KeyStatuses = { secretKey: status('secretKey'), accessToken: status('accessToken') };
  const notices: Partial<Record<DraftKey, string | null>> = {
    baseUrl: addressKeyNotice(draft, keys, 'baseUrl'),
    payoutBaseUrl: addressKeyNotice(draft, keys, 'payoutBaseUrl'),
  };
  const field = (key: DraftKey, label: string, hint: ReactNode, type = 'text') => (
    <Field
      id={`${id}-${key}`}
      label={label}
      hint={hint}
      type={type}
      value={draft[key]}
      error={fieldProblem(key)}
      notice={notices[key] ?? null}
      onChange={(value) => change(key, value)}
    />
  );
  const keyHint = (key: 'secretKey' | 'accessToken') =>
    secretHint(keyStatusAt(draft, key, keys[key]));

  return (
    <section className="panel settings-section go-live" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Connect your provider</h3>
      <p className="where-keys">{WHERE_KEYS_COME_FROM}</p>
      <EnvironmentRadios id={id} environment={environment} onChoose={choose} />

      <fieldset className="field-grid">
        <legend>2. The provider’s details for {name}</legend>
        {settingField(field, 'baseUrl')}
        {settingField(field, 'payoutBaseUrl')}
        {settingField(field, 'merchantId')}
        {settingField(field, 'merchantCategory')}
        {settingField(field, 'accountName')}
        {settingField(field, 'payoutAccountId')}
        {field('secretKey', keyFieldLabel('secretKey'), keyHint('secretKey'), 'password')}
        {field('accessToken', keyFieldLabel('accessToken'), keyHint('accessToken'), 'password')}
      </fieldset>

      <GoLiveRoute
        id={id}
        route={draft.route}
        onRoute={(value) => change('route', value)}
        field={field}
        ngrokHint={secretHint(status('ngrokAuthtoken'))}
      />
      <GoLiveActions
        name={name}
        inUse={inUse}
        state={state}
        confirmSwitch={confirmSwitch}
        onSave={() => void save()}
        trialChoice={
          environment === 'production' ? { ticked: trialOnLive, onTick: setTrialOnLive } : null
        }
        onCheck={() => void flow.checkEverything(environment, trialOnLive)}
        onSwitch={switchNow}
      />
    </section>
  );
}

/** 3. How payment news reaches this till, and what that route needs. */
function GoLiveRoute({
  id,
  route,
  onRoute,
  field,
  ngrokHint,
}: {
  readonly id: string;
  readonly ngrokHint: string;
  readonly route: CallbackChoice;
  readonly onRoute: (route: CallbackChoice) => void;
  readonly field: FieldOf;
}) {
  return (
    <>
      <fieldset className="radio-list">
        <legend>3. How payment news reaches this till</legend>
        {ROUTE_CHOICES.map((choice) => (
          <label key={choice.value} className="radio">
            <input
              type="radio"
              name={`${id}-route`}
              checked={route === choice.value}
              onChange={() => onRoute(choice.value)}
            />
            <span>
              {choice.label}
              <span className="field-hint"> {choice.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="field-grid">
        {route === 'ngrok' &&
          field('ngrokAuthtoken', keyFieldLabel('ngrokAuthtoken'), ngrokHint, 'password')}
        {route === 'ngrok' && settingField(field, 'ngrokDomain')}
        {route === 'public-url' && settingField(field, 'publicUrl')}
        {route !== 'polling-only' && settingField(field, 'listenerPort')}
      </div>
    </>
  );
}

/** Save, "Check everything" and its lines, and the switch as the last step. */
function GoLiveActions(props: {
  readonly name: string;
  readonly inUse: boolean;
  readonly state: GoLiveState;
  readonly confirmSwitch: boolean;
  /** LIVE's trial account, a choice (STAGING always makes one); null elsewhere. */
  readonly trialChoice: {
    readonly ticked: boolean;
    readonly onTick: (ticked: boolean) => void;
  } | null;
  readonly onSave: () => void;
  readonly onCheck: () => void;
  readonly onSwitch: () => void;
}) {
  const { name, inUse, state, confirmSwitch } = props;
  return (
    <>
      {props.trialChoice && (
        <label className="checkbox trial-choice">
          <input
            type="checkbox"
            checked={props.trialChoice.ticked}
            onChange={(event) => props.trialChoice?.onTick(event.target.checked)}
          />
          <span>
            {TRIAL_CHOICE_LABEL}
            <span className="field-hint">
              {' '}
              “Check everything” then asks the provider for an account as a sale does, for{' '}
              {formatNaira(SMALLEST_SALE_KOBO)}, expiring in {TRIAL_EXPIRY_MINUTES} minute.
            </span>
          </span>
        </label>
      )}
      <div className="save-row">
        <button
          type="button"
          className="button primary"
          disabled={state.busy !== null}
          onClick={props.onSave}
        >
          Save {name} connection
        </button>
        <button
          type="button"
          className="button"
          disabled={state.busy !== null || !state.saved}
          onClick={props.onCheck}
        >
          Check everything
        </button>
        {state.busy && (
          <span className="progress-text" role="status">
            {state.busy === 'saving'
              ? 'Saving…'
              : state.busy === 'checking'
                ? 'Checking…'
                : 'Switching…'}
          </span>
        )}
        {state.saved && !state.busy && !state.check && (
          <span className="saved-notice" role="status">
            Saved. Now press “Check everything”.
          </span>
        )}
        {state.problem && (
          <p className="error" role="alert">
            Not saved: {state.problem.message}
          </p>
        )}
      </div>

      {state.check && (
        <ul className="go-live-checks" aria-label="Check results">
          {state.check.lines.map((line) => (
            <li key={line.check} className={checkClass(line)}>
              <strong>
                {line.notRun ? '–' : line.ok ? '✓' : '✗'} {line.title}
              </strong>{' '}
              {line.message}
              {line.advice && <span className="check-advice"> What to do: {line.advice}</span>}
            </li>
          ))}
        </ul>
      )}

      <div className="go-live-switch" role="group" aria-label="4. Switch">
        <h4>4. Switch this till to {name}</h4>
        {inUse ? (
          <p className="notice">This till uses {name} now.</p>
        ) : (
          <>
            <p className="field-hint">{switchHint(state.check)}</p>
            {confirmSwitch && (
              <p className="live-warning" role="alert">
                {state.openSales > 0
                  ? `${state.openSales} sale${state.openSales === 1 ? ' is' : 's are'} still open: they keep being watched in the environment they were made in only until you switch. Switch anyway?`
                  : 'LIVE moves real money. Switch anyway?'}
              </p>
            )}
            <button
              type="button"
              className="button"
              disabled={state.busy !== null}
              onClick={props.onSwitch}
            >
              {confirmSwitch ? `Yes, switch to ${name}` : `Switch to ${name}`}
            </button>
          </>
        )}
      </div>
    </>
  );
}

function checkClass(line: GoLiveCheckLine): string {
  if (line.notRun) return 'check-not-run';
  return line.ok ? 'check-ok' : 'check-failed';
}

function switchHint(check: GoLiveCheckView | null): string {
  if (!check?.passed) return 'Check everything first; you can switch back at any time.';
  return check.lines.some((line) => line.notRun)
    ? "Everything else checked; a sale's account was not tried. Switch when you are ready to sell with it."
    : 'Everything checked. Switch when you are ready to sell with it.';
}

/** 1. Which environment the form is for. */
function EnvironmentRadios({
  id,
  environment,
  onChoose,
}: {
  readonly id: string;
  readonly environment: KeyedEnvironment;
  readonly onChoose: (environment: KeyedEnvironment) => void;
}) {
  return (
    <fieldset className="radio-list inline">
      <legend>1. Which environment</legend>
      {KEYED_ENVIRONMENTS.map((option) => (
        <label key={option} className="radio">
          <input
            type="radio"
            name={`${id}-environment`}
            checked={environment === option}
            onChange={() => onChoose(option)}
          />
          <span>
            {ENVIRONMENT_NAMES[option]}
            {option === 'staging' ? ' (the provider’s test service)' : ' (real money)'}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function secretHint(status: SecretStatusView | null): string {
  // A saved one that cannot be used is not worth keeping: the words say to enter it again.
  if (status?.problem) return secretStatusWords(status);
  const saved = status ? `${secretStatusWords(status)}. ` : '';
  return `${saved}Leave blank to keep the saved one; it is never shown again.`;
}

function Field(props: {
  readonly id: string;
  readonly label: string;
  readonly hint: ReactNode;
  readonly type: string;
  readonly value: string;
  readonly error: string | undefined;
  /** Not an error in what is typed, but what it means: saved keys will not go there. */
  readonly notice: string | null;
  readonly onChange: (value: string) => void;
}) {
  const { id, label, hint, type, value, error, notice, onChange } = props;
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error !== undefined}
        aria-describedby={describedBy(
          `${id}-hint`,
          notice ? `${id}-notice` : null,
          error ? `${id}-error` : null,
        )}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
      {notice && (
        <p id={`${id}-notice`} className="field-notice" data-testid="keys-elsewhere">
          {notice}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
