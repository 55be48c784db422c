import type { ReactNode } from 'react';
import type { SettingsSection } from './settings-form';

interface FieldProps {
  readonly section: SettingsSection;
  /** The dotted settings path, e.g. 'profiles.staging.baseUrl'. */
  readonly field: string;
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly hint?: ReactNode;
  readonly type?: 'text' | 'url';
  readonly inputMode?: 'text' | 'numeric' | 'decimal' | 'url';
  /** A textarea, one item a line. */
  readonly multiline?: boolean;
  /** Shown after the hint: messages about the items of a list field. */
  readonly extraError?: string;
}

/** The ids that describe a field: its hint, then its problem. */
export function describedBy(
  ...ids: readonly (string | null | false | undefined)[]
): string | undefined {
  const present = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return present.length > 0 ? present.join(' ') : undefined;
}

/** A labelled text input with its hint and its message next to it, tied by aria-describedby. */
export function TextField(props: FieldProps) {
  const { section, field, label, value, onChange, hint, multiline } = props;
  const id = section.idOf(field);
  const error = section.errorOf(field) ?? props.extraError;
  const hintId = hint ? `${id}-hint` : null;
  const errorId = error ? `${id}-error` : null;
  const common = {
    id,
    value,
    'aria-invalid': error !== undefined,
    'aria-describedby': describedBy(hintId, errorId),
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
          type={props.type ?? 'text'}
          inputMode={props.inputMode}
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
      {error && (
        <p id={errorId ?? undefined} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The section's Save button with what happened to the last save. */
export function SaveRow({
  section,
  label,
}: {
  readonly section: SettingsSection;
  readonly label: string;
}) {
  return (
    <div className="save-row">
      <button
        type="button"
        className="button primary"
        disabled={section.saving}
        onClick={() => void section.save()}
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
