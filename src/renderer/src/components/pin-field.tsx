import { useId } from 'react';

/**
 * A PIN field: digits on a phone's keypad, hidden as typed, never autofilled or remembered by
 * the browser. Its problem (wrong PIN, locked) is tied to it for screen readers.
 */
export function PinField({
  label,
  value,
  onChange,
  error,
  autoFocus,
  problemId,
}: {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error?: string | null;
  readonly autoFocus?: boolean;
  /**
   * The id of a problem shown elsewhere (after the form's button, so that it never moves the
   * field): the field is then described by it and shows no message of its own.
   */
  readonly problemId?: string | null;
}) {
  const id = useId();
  const errorId = problemId ?? `${id}-error`;
  return (
    <div className={`field pin-field ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={12}
        value={value}
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value.replace(/\D/g, ''))}
      />
      {error && !problemId && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
