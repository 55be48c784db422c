import { useState, type FormEvent } from 'react';
import type { SessionView } from '#shared/bridge/contract';
import type { Settings } from '#shared/settings-schema';
import type { SettingsView } from '#shared/views';
import { PinField } from '../../components/pin-field';
import { useSession } from '../../session-context';
import { CheckboxField, SaveRow } from './fields';
import { useSettingsSection } from './settings-form';
import { useCashierPins, useOwnerPin } from './use-roles';
import { settingLabel } from '#shared/settings/registry';

const NEW_PIN = /^\d{4,12}$/;

/** Why a new PIN and its repetition cannot be used, or null. */
export function newPinProblem(pin: string, repeat: string): string | null {
  if (!NEW_PIN.test(pin)) return 'A PIN is 4 to 12 digits';
  if (pin !== repeat) return 'The two PINs are not the same';
  return null;
}

/**
 * The owner PIN (set, change, remove: change and remove need the current one), the option that
 * cashiers need their own PIN, and each cashier's PIN. Main keeps the PINs (salted hashes); this
 * screen only sends them and learns whether each is set.
 */
export function RolesSection({
  settings,
  onSaved,
}: {
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const { session } = useSession();
  return (
    <section className="panel settings-section roles" aria-labelledby="roles-heading">
      <h3 id="roles-heading">Owner and cashiers</h3>
      {session === null ? (
        <p role="status">Loading…</p>
      ) : (
        <>
          <OwnerPin session={session} />
          <CashierPins session={session} settings={settings} onSaved={onSaved} />
        </>
      )}
    </section>
  );
}

/** The PINs typed into the owner's two forms (set or change, and remove). */
interface OwnerPinForm {
  readonly current: string;
  readonly pin: string;
  readonly repeat: string;
  readonly removeWith: string;
}

const EMPTY_OWNER_PIN_FORM: OwnerPinForm = { current: '', pin: '', repeat: '', removeWith: '' };

function OwnerPin({ session }: { readonly session: SessionView }) {
  const { busy, setOwnerPin, removeOwnerPin } = useOwnerPin();
  const { apply } = useSession();
  const [form, setForm] = useState(EMPTY_OWNER_PIN_FORM);
  const { current, pin, repeat, removeWith } = form;
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  function errorOf(field: string): string | null {
    return problem?.field === field ? problem.message : null;
  }

  function clear(): void {
    setForm(EMPTY_OWNER_PIN_FORM);
  }

  async function save(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (busy) return;
    setNotice(null);
    const local = newPinProblem(pin, repeat);
    if (session.ownerPinSet && !current) {
      setProblem({ field: 'currentPin', message: 'Enter the current owner PIN' });
      return;
    }
    if (local) {
      setProblem({ field: pin && NEW_PIN.test(pin) ? 'repeat' : 'pin', message: local });
      return;
    }
    const result = await setOwnerPin(session.ownerPinSet ? { pin, currentPin: current } : { pin });
    if (result === null) return;
    if (!result.ok) {
      setProblem({ field: result.failure.field ?? 'pin', message: result.failure.words });
      return;
    }
    clear();
    setProblem(null);
    setNotice(session.ownerPinSet ? 'Owner PIN changed.' : 'Owner PIN set.');
    apply(result.session);
  }

  async function remove(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (busy) return;
    setNotice(null);
    if (!removeWith) {
      setProblem({ field: 'removeWith', message: 'Enter the current owner PIN' });
      return;
    }
    const result = await removeOwnerPin({ currentPin: removeWith });
    if (result === null) return;
    if (!result.ok) {
      setProblem({ field: 'removeWith', message: result.failure.words });
      return;
    }
    clear();
    setProblem(null);
    setNotice('Owner PIN removed: every page of this till is owner again.');
    apply(result.session);
  }

  const edited = (field: keyof OwnerPinForm) => (value: string) => {
    setForm((typed) => ({ ...typed, [field]: value }));
    setProblem(null);
  };

  return (
    <div className="owner-pin">
      <h4>Owner PIN</h4>
      <p data-testid="owner-pin-status">
        {session.ownerPinSet
          ? 'An owner PIN is set: Settings, Balance and the report open only after it is typed. PIN entry locks for a while after 5 wrong PINs.'
          : 'No owner PIN is set: anyone at this till can open Settings, Balance and the report. Set one to keep them for the owner.'}
      </p>
      <form onSubmit={(event) => void save(event)} noValidate>
        {session.ownerPinSet && (
          <PinField
            label="Current owner PIN"
            value={current}
            onChange={edited('current')}
            error={errorOf('currentPin')}
          />
        )}
        <PinField
          label={session.ownerPinSet ? 'New owner PIN' : 'Owner PIN (4 to 12 digits)'}
          value={pin}
          onChange={edited('pin')}
          error={errorOf('pin')}
        />
        <PinField
          label="The same PIN again"
          value={repeat}
          onChange={edited('repeat')}
          error={errorOf('repeat')}
        />
        <button type="submit" className="button primary" disabled={busy}>
          {session.ownerPinSet ? 'Change owner PIN' : 'Set owner PIN'}
        </button>
      </form>
      {session.ownerPinSet && (
        <form className="remove-owner-pin" onSubmit={(event) => void remove(event)} noValidate>
          <PinField
            label="Current owner PIN (to remove it)"
            value={removeWith}
            onChange={edited('removeWith')}
            error={errorOf('removeWith')}
          />
          <button type="submit" className="button secondary" disabled={busy}>
            Remove owner PIN
          </button>
        </form>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
    </div>
  );
}

function CashierPins({
  session,
  settings,
  onSaved,
}: {
  readonly session: SessionView;
  readonly settings: Settings;
  readonly onSaved: (view: SettingsView) => void;
}) {
  const setCashierPin = useCashierPins();
  const { apply } = useSession();
  const [required, setRequired] = useState(settings.roles.cashierPins);
  const [drafts, setDrafts] = useState<Readonly<Record<string, string>>>({});
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({});
  const [notice, setNotice] = useState<string | null>(null);
  // The page's one setting, saved by its one Save; the PINs each have their own action.
  const section = useSettingsSection({
    settings,
    patch: { roles: { cashierPins: required } },
    fields: ['roles.cashierPins'],
    onSaved: (saved) => {
      setRequired(saved.settings.roles.cashierPins);
      onSaved(saved);
    },
  });

  async function setPin(name: string, pin: string | null): Promise<void> {
    setNotice(null);
    if (pin !== null && !NEW_PIN.test(pin)) {
      setProblems((current) => ({ ...current, [name]: 'A PIN is 4 to 12 digits' }));
      return;
    }
    const result = await setCashierPin({ name, pin });
    if (!result.ok) {
      setProblems((current) => ({ ...current, [name]: result.failure.words }));
      return;
    }
    setDrafts((current) => ({ ...current, [name]: '' }));
    setProblems((current) => ({ ...current, [name]: '' }));
    setNotice(pin === null ? `${name}'s PIN removed.` : `${name}'s PIN set.`);
    apply(result.session);
  }

  return (
    <div className="cashier-pins">
      <h4>{settingLabel('shop.cashiers')}</h4>
      {session.ownerPinSet ? (
        <p className="muted">
          Cashiers sign in by name at the counter and see only their own sales. Add or remove names
          under Shop and till.
        </p>
      ) : (
        <p className="muted">Cashier sign-in starts once an owner PIN is set.</p>
      )}
      <CheckboxField
        section={section}
        field="roles.cashierPins"
        checked={required}
        onChange={setRequired}
      />
      <SaveRow section={section} label="Save cashier sign-in" />
      {session.cashiers.length === 0 ? (
        <p className="muted">No cashiers yet.</p>
      ) : (
        <ul className="cashier-pin-list" aria-label="Cashier PINs">
          {session.cashiers.map((cashier) => (
            <li key={cashier.name}>
              <span className="cashier-name">{cashier.name}</span>{' '}
              <span className="muted">{cashier.pinSet ? 'PIN set' : 'No PIN'}</span>
              <form
                className="inline-form"
                onSubmit={(event) => {
                  event.preventDefault();
                  void setPin(cashier.name, drafts[cashier.name] ?? '');
                }}
                noValidate
              >
                <PinField
                  label={`New PIN for ${cashier.name}`}
                  value={drafts[cashier.name] ?? ''}
                  onChange={(value) => {
                    setDrafts((current) => ({ ...current, [cashier.name]: value }));
                    setProblems((current) => ({ ...current, [cashier.name]: '' }));
                  }}
                  error={problems[cashier.name] || null}
                />
                <button type="submit" className="button secondary">
                  Set PIN for {cashier.name}
                </button>
                {cashier.pinSet && (
                  <button
                    type="button"
                    className="button secondary"
                    onClick={() => void setPin(cashier.name, null)}
                  >
                    Remove PIN for {cashier.name}
                  </button>
                )}
              </form>
            </li>
          ))}
        </ul>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
    </div>
  );
}
