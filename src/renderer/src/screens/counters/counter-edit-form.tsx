import { useId, useState, type FormEvent } from 'react';
import type { HubView, PairedCounterView } from '#shared/hub';
import { tillIdProblem } from '#shared/till-id';
import { useUpdateCounter } from './use-counters';
import { SETTING_LABELS } from '#shared/schema-data';

/** Which field main's refusal is about, when it names one this form shows. */
function fieldOf(field: string | null): 'name' | 'tillId' | null {
  return field === 'name' || field === 'tillId' ? field : null;
}

/** Renames a counter or changes its till id; main checks the till id is unique in the shop. */
export function CounterEditForm({
  counter,
  onDone,
  onHub,
}: {
  readonly counter: PairedCounterView;
  readonly onDone: () => void;
  readonly onHub: (view: HubView) => void;
}) {
  const id = useId();
  const [name, setName] = useState(counter.name);
  const [tillId, setTillId] = useState(counter.tillId);
  const [checked, setChecked] = useState<{ readonly name?: string; readonly tillId?: string }>({});
  const saving = useUpdateCounter(counter.id, onHub);
  const { busy } = saving;
  // Main's refusal shows beside the field it names, else below the form.
  const mainField = fieldOf(saving.errorField);
  const errors = mainField ? { ...checked, [mainField]: saving.error ?? undefined } : checked;
  const problem = mainField ? null : saving.error;
  function edited(field: 'name' | 'tillId'): void {
    setChecked((current) => ({ ...current, [field]: undefined }));
    if (mainField === field) saving.showError(null);
  }

  async function save(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (busy) return;
    saving.showError(null);
    const change = {
      ...(name.trim() !== counter.name ? { name: name.trim() } : {}),
      ...(tillId.trim() !== counter.tillId ? { tillId: tillId.trim() } : {}),
    };
    const nameProblem = name.trim() === '' ? 'Name the counter' : undefined;
    const tillProblem = change.tillId !== undefined ? tillIdProblem(change.tillId) : null;
    if (nameProblem || tillProblem) {
      setChecked({ name: nameProblem, tillId: tillProblem ?? undefined });
      return;
    }
    setChecked({});
    if (change.name === undefined && change.tillId === undefined) {
      onDone();
      return;
    }
    if (await saving.update(change)) onDone();
  }

  return (
    <form
      className="paired-counter-edit"
      aria-label={`Change ${counter.name}`}
      onSubmit={(event) => void save(event)}
      noValidate
    >
      <EditField
        id={`${id}-name`}
        label="Name"
        value={name}
        error={errors.name}
        onChange={(value) => {
          setName(value);
          edited('name');
        }}
      />
      <EditField
        id={`${id}-till`}
        label={SETTING_LABELS['shop.tillId']}
        value={tillId}
        error={errors.tillId}
        hint="Its sales and their references carry it (e.g. till-b2); unique in the shop."
        onChange={(value) => {
          setTillId(value);
          edited('tillId');
        }}
      />
      <div className="actions">
        <button type="submit" className="button primary small" disabled={busy}>
          Save
        </button>
        <button type="button" className="button secondary small" onClick={onDone}>
          Cancel
        </button>
      </div>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </form>
  );
}

function EditField({
  id,
  label,
  value,
  error,
  hint,
  onChange,
}: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly error: string | undefined;
  readonly hint?: string;
  readonly onChange: (value: string) => void;
}) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(
    (part): part is string => part !== null,
  );
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        autoComplete="off"
        spellCheck={false}
        value={value}
        aria-invalid={error !== undefined}
        aria-describedby={described.length > 0 ? described.join(' ') : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
