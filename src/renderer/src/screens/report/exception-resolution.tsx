import { useId, useState, type FormEvent } from 'react';
import { RESOLUTION_ACTIONS, type ReportException } from '#shared/views';
// One definition with the PDF made in main.
import { RESOLUTION_WORDS, STATUS_LINE, describeResolution } from '#shared/report-words';
import { useExceptionResolution, type ResolutionDraft } from './use-exception-resolution';

/**
 * An exception's resolution inside its report line: open or resolved (what, who, when), and for
 * the owner a form to record what was done, change it or reopen the case. Only the status line
 * prints.
 */
export function ExceptionResolutionPanel({
  exception,
  timeZone,
}: {
  readonly exception: ReportException;
  readonly timeZone: string;
}) {
  const id = useId();
  const { resolution, busy, error, errorField, clearError, resolve, reopen } =
    useExceptionResolution(exception);
  const [draft, setDraft] = useState<ResolutionDraft | null>(null);

  function edit(): void {
    clearError();
    setDraft({
      action: resolution?.action ?? 'refunded',
      bankReference: resolution?.bankReference ?? '',
      note: resolution?.note ?? '',
    });
  }

  async function save(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (!draft || busy) return;
    if (await resolve(draft)) setDraft(null);
  }

  const errorId = `${id}-error`;
  return (
    <div
      className="exception-resolution"
      data-testid="exception-resolution"
      data-state={resolution ? 'resolved' : 'open'}
    >
      {resolution ? (
        <>
          <p>
            <strong>Resolved:</strong> {describeResolution(resolution, timeZone)}
          </p>
          {resolution.note !== null && <p>Note: {resolution.note}</p>}
        </>
      ) : (
        <p>
          <strong>{STATUS_LINE.open}</strong>
        </p>
      )}

      {draft === null ? (
        <div className="resolution-buttons no-print">
          <button type="button" className="button secondary" disabled={busy} onClick={edit}>
            {resolution ? 'Change what was done' : 'Record what was done'}
          </button>
          {resolution && (
            <button
              type="button"
              className="button secondary"
              disabled={busy}
              onClick={() => void reopen()}
            >
              Reopen
            </button>
          )}
        </div>
      ) : (
        <ResolutionForm
          id={id}
          draft={draft}
          busy={busy}
          errorField={errorField}
          errorId={errorId}
          onDraft={setDraft}
          onSave={(event) => void save(event)}
          onCancel={() => {
            setDraft(null);
            clearError();
          }}
        />
      )}
      {error && (
        <p id={errorId} className="field-error no-print" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function ResolutionForm({
  id,
  draft,
  busy,
  errorField,
  errorId,
  onDraft,
  onSave,
  onCancel,
}: {
  readonly id: string;
  readonly draft: ResolutionDraft;
  readonly busy: boolean;
  /** The field main's refusal named, else null. */
  readonly errorField: string | null;
  readonly errorId: string;
  readonly onDraft: (draft: ResolutionDraft) => void;
  readonly onSave: (event: FormEvent) => void;
  readonly onCancel: () => void;
}) {
  const invalid = (field: string) => (errorField === field ? true : undefined);
  return (
    <form className="resolution-form no-print" onSubmit={onSave} noValidate>
      <fieldset>
        <legend>What was done</legend>
        {RESOLUTION_ACTIONS.map((action) => (
          <label className="radio" key={action}>
            <input
              type="radio"
              name={`${id}-action`}
              checked={draft.action === action}
              onChange={() => onDraft({ ...draft, action })}
            />
            {RESOLUTION_WORDS[action]}
          </label>
        ))}
      </fieldset>
      {draft.action === 'refunded' && (
        <label className="field">
          <span>Bank reference of the refund transfer</span>
          <input
            type="text"
            maxLength={100}
            value={draft.bankReference}
            aria-invalid={invalid('bankReference')}
            aria-describedby={invalid('bankReference') ? errorId : undefined}
            onChange={(event) => onDraft({ ...draft, bankReference: event.target.value })}
          />
        </label>
      )}
      <label className="field">
        <span>{draft.action === 'other' ? 'Note (what was done)' : 'Note (optional)'}</span>
        <textarea
          rows={2}
          maxLength={500}
          value={draft.note}
          aria-invalid={invalid('note')}
          aria-describedby={invalid('note') ? errorId : undefined}
          onChange={(event) => onDraft({ ...draft, note: event.target.value })}
        />
      </label>
      <div className="resolution-buttons">
        <button type="submit" className="button primary" disabled={busy}>
          Save
        </button>
        <button type="button" className="button secondary" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
