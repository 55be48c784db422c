import type { ReactNode } from 'react';
import { settingAt, settingLabel } from '#shared/settings/registry';
import type { SettingsSection } from './settings-form';

interface FieldProps {
  readonly section: SettingsSection;
  /**
   * The dotted settings path, e.g. 'profiles.staging.baseUrl': the field's label, hint and
   * input follow from its entry in the registry (src/shared/settings/).
   */
  readonly field: string;
  /** In place of the entry's label: the entry's label with more words (e.g. which address). */
  readonly label?: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** In place of the entry's hint: words that follow what is typed. */
  readonly hint?: ReactNode;
  /** A textarea, one item a line. */
  readonly multiline?: boolean;
  /** Shown after the hint: messages about the items of a list field. */
  readonly extraError?: string;
  /** Not an error in what is typed, but what it means (saved keys will not go there). */
  readonly notice?: string | null;
}

/** The ids that describe a field: its hint, then its problem. */
export function describedBy(
  ...ids: readonly (string | null | false | undefined)[]
): string | undefined {
  const present = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return present.length > 0 ? present.join(' ') : undefined;
}

/** The input type and keyboard a setting's entry asks for. */
function inputOf(field: string): {
  type: 'text' | 'url';
  inputMode?: 'numeric' | 'decimal' | 'url';
} {
  const input = settingAt(field)?.input;
  if (input === undefined || input === 'text') return { type: 'text' };
  return { type: input === 'url' ? 'url' : 'text', inputMode: input };
}

/** A labelled text input with its hint and its message next to it, tied by aria-describedby. */
export function TextField(props: FieldProps) {
  const { section, field, value, onChange, multiline } = props;
  const label = props.label ?? settingLabel(field);
  const hint = props.hint ?? settingAt(field)?.hint;
  const id = section.idOf(field);
  const error = section.errorOf(field) ?? props.extraError;
  const hintId = hint ? `${id}-hint` : null;
  const noticeId = props.notice ? `${id}-notice` : null;
  const errorId = error ? `${id}-error` : null;
  const common = {
    id,
    value,
    'aria-invalid': error !== undefined,
    'aria-describedby': describedBy(hintId, noticeId, errorId),
    onBlur: () => section.touch(field),
  };
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea
          {...common}
          rows={4}
          spellCheck={false}
          onChange={(event) => {
            onChange(event.target.value);
            section.edited(field);
          }}
        />
      ) : (
        <input
          {...common}
          {...inputOf(field)}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => {
            onChange(event.target.value);
            section.edited(field);
          }}
        />
      )}
      {hint && (
        <p id={hintId ?? undefined} className="field-hint">
          {hint}
        </p>
      )}
      {props.notice && (
        <p id={noticeId ?? undefined} className="field-notice" data-testid="keys-elsewhere">
          {props.notice}
        </p>
      )}
      {error && (
        <p id={errorId ?? undefined} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The message under a field, tied to it by its id. */
function FieldError({ id, error }: { readonly id: string; readonly error: string | undefined }) {
  return error ? (
    <p id={`${id}-error`} className="field-error">
      {error}
    </p>
  ) : null;
}

/** A labelled checkbox saved with its section, with its hint and message under it. */
export function CheckboxField(props: {
  readonly section: SettingsSection;
  /** The dotted settings path: its label and hint follow from the registry. */
  readonly field: string;
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
  /** In place of the entry's hint: words that follow what is chosen. */
  readonly hint?: ReactNode;
}) {
  const { section, field, checked, onChange } = props;
  const label = settingLabel(field);
  const hint = props.hint ?? settingAt(field)?.hint;
  const id = section.idOf(field);
  const error = section.errorOf(field);
  return (
    <div className={`field checkbox-field ${error ? 'field-invalid' : ''}`}>
      <label className="checkbox">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-invalid={error !== undefined}
          aria-describedby={describedBy(hint ? `${id}-hint` : null, error && `${id}-error`)}
          onChange={(event) => {
            onChange(event.target.checked);
            section.edited(field);
          }}
        />
        <span>{label}</span>
      </label>
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A slider from 0 to 100 % (a volume) saved with its section; what it says, beside it. */
export function RangeField(props: {
  readonly section: SettingsSection;
  /** The dotted settings path: its label follows from the registry. */
  readonly field: string;
  /** 0..100. */
  readonly percent: number;
  readonly onChange: (percent: number) => void;
  readonly disabled?: boolean;
  /** A button or words after the slider (e.g. "Play the chime"). */
  readonly extra?: ReactNode;
}) {
  const { section, field, percent, onChange, disabled, extra } = props;
  const label = settingLabel(field);
  const id = section.idOf(field);
  const error = section.errorOf(field);
  return (
    <div className={`volume-row ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="range"
        min={0}
        max={100}
        step={5}
        value={percent}
        disabled={disabled}
        aria-valuetext={`${percent}%`}
        aria-describedby={describedBy(error && `${id}-error`)}
        onChange={(event) => {
          onChange(Number(event.target.value));
          section.edited(field);
        }}
      />
      <output htmlFor={id}>{percent}%</output>
      {extra}
      <FieldError id={id} error={error} />
    </div>
  );
}

/**
 * A button that acts at once (test, rotate), with what it does beside it: not a Save, so it is
 * never styled as one.
 */
export function ActionRow(props: {
  readonly label: string;
  readonly onClick: () => void;
  readonly disabled?: boolean;
  readonly ariaLabel?: string;
  readonly children?: ReactNode;
}) {
  return (
    <div className="save-row action-row">
      <button
        type="button"
        className="button secondary"
        disabled={props.disabled}
        aria-label={props.ariaLabel}
        onClick={props.onClick}
      >
        {props.label}
      </button>
      {props.children && <span className="muted">{props.children}</span>}
    </div>
  );
}

/** The section's Save button with what happened to the last save. */
export function SaveRow({
  section,
  label,
  onSave,
}: {
  readonly section: SettingsSection;
  readonly label: string;
  /** In place of the section's own save (a page that asks a question first). */
  readonly onSave?: () => void;
}) {
  return (
    <div className="save-row">
      <button
        type="button"
        className="button primary"
        disabled={section.saving}
        onClick={() => (onSave ? onSave() : void section.save())}
      >
        {label}
      </button>
      {section.saving && (
        <span className="progress-text" role="status">
          Saving…
        </span>
      )}
      {section.notice && (
        <span className="saved-notice" role="status">
          {section.notice}
        </span>
      )}
      {section.problem && (
        <p className="error" role="alert">
          {section.problem}
        </p>
      )}
    </div>
  );
}
