import { useId, useState, type FormEvent } from 'react';
import {
  RESOLUTION_ACTIONS,
  type ExceptionResolution,
  type ReportException,
  type ResolutionAction,
} from '#shared/views';
import { useBridge } from '../../bridge-context';
import { cashierMessage } from '../../errors';
// One definition with the PDF made in main.
import { RESOLUTION_WORDS, describeResolution } from '#shared/report-words';

interface Draft {
  readonly action: ResolutionAction;
  readonly bankReference: string;
  readonly note: string;
}

interface FormError {
  readonly message: string;
  readonly field: string | null;
}

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
  const bridge = useBridge();
  const id = useId();
  // What this panel last recorded, for as long as the report shown is the one it was made on
  // (a reloaded report brings the stored state with it).
  const [recorded, setRecorded] = useState<{
    readonly on: ReportException;
    readonly resolution: ExceptionResolution | null;
  } | null>(null);
  const resolution = recorded?.on === exception ? recorded.resolution : exception.resolution;
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<FormError | null>(null);
  const [busy, setBusy] = useState(false);

  function edit(): void {
    setError(null);
    setDraft({
      action: resolution?.action ?? 'refunded',
      bankReference: resolution?.bankReference ?? '',
      note: resolution?.note ?? '',
    });
  }

  async function save(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (!draft || busy) return;
    setBusy(true);
    const result = await bridge.resolveException({
      key: exception.key,
      action: draft.action,
      bankReference: draft.action === 'refunded' ? draft.bankReference : null,
      note: draft.note,
    });
    setBusy(false);
    if (!result.ok) {
      setError({ message: cashierMessage(result.error), field: result.error.field ?? null });
      return;
    }
    setRecorded({ on: exception, resolution: result.value.resolution });
    setDraft(null);
    setError(null);
  }

  async function reopen(): Promise<void> {
    setBusy(true);
    const result = await bridge.reopenException({ key: exception.key });
    setBusy(false);
    if (!result.ok) {
      setError({ message: cashierMessage(result.error), field: null });
      return;
    }
    setRecorded({ on: exception, resolution: result.value.resolution });
    setError(null);
  }

  const errorId = `${id}-error`;
  const invalid = (field: string) => (error?.field === field ? true : undefined);

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
          <strong>Open:</strong> nothing recorded yet.
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
        <form
          className="resolution-form no-print"
          onSubmit={(event) => void save(event)}
          noValidate
        >
          <fieldset>
            <legend>What was done</legend>
            {RESOLUTION_ACTIONS.map((action) => (
              <label className="radio" key={action}>
                <input
                  type="radio"
                  name={`${id}-action`}
                  checked={draft.action === action}
                  onChange={() => setDraft({ ...draft, action })}
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
                onChange={(event) => setDraft({ ...draft, bankReference: event.target.value })}
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
              onChange={(event) => setDraft({ ...draft, note: event.target.value })}
            />
          </label>
          <div className="resolution-buttons">
            <button type="submit" className="button primary" disabled={busy}>
              Save
            </button>
            <button
              type="button"
              className="button secondary"
              disabled={busy}
              onClick={() => {
                setDraft(null);
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && (
        <p id={errorId} className="field-error no-print" role="alert">
          {error.message}
        </p>
      )}
    </div>
  );
}
