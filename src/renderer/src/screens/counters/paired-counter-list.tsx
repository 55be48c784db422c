import { useEffect, useRef, useState } from 'react';
import type { HubView, PairedCounterView } from '#shared/hub';
import { useRevokeCounter } from './use-counters';
import { formatDateTime } from '../../format';
import { useNow } from '../../use-now';
import { CounterEditForm } from './counter-edit-form';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A counter's last contact in words: "connected now" while its event stream is open. */
export function lastContactWords(counter: PairedCounterView, now: number): string {
  if (counter.connected && counter.revokedAt === null) return 'connected now';
  if (counter.lastContactAt === null) return 'never';
  const ago = Math.max(0, now - counter.lastContactAt);
  if (ago < MINUTE_MS) return 'less than a minute ago';
  if (ago < HOUR_MS) return `${Math.floor(ago / MINUTE_MS)} min ago`;
  if (ago < 24 * HOUR_MS) return `${Math.floor(ago / HOUR_MS)} h ago`;
  return formatDateTime(counter.lastContactAt);
}

/** Every counter paired to this hub, newest first; removed ones stay, greyed, for the record. */
export function PairedCounterList({
  counters,
  onHub,
}: {
  readonly counters: readonly PairedCounterView[];
  readonly onHub: (view: HubView) => void;
}) {
  const now = useNow(15_000);
  return (
    <section className="panel paired-counters" aria-labelledby="paired-counters-heading">
      <h3 id="paired-counters-heading">Paired counters</h3>
      {counters.length === 0 ? (
        <p className="muted">No counter is paired yet.</p>
      ) : (
        <ul className="paired-counter-list">
          {counters.map((counter) => (
            <PairedCounterRow key={counter.id} counter={counter} now={now} onHub={onHub} />
          ))}
        </ul>
      )}
    </section>
  );
}

type Editing = 'none' | 'rename' | 'revoke';

function PairedCounterRow({
  counter,
  now,
  onHub,
}: {
  readonly counter: PairedCounterView;
  readonly now: number;
  readonly onHub: (view: HubView) => void;
}) {
  const [editing, setEditing] = useState<Editing>('none');
  const { busy, error, showError, revoke: send } = useRevokeCounter(counter.id, onHub);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const revoked = counter.revokedAt !== null;

  useEffect(() => {
    if (editing === 'revoke') confirmRef.current?.focus();
  }, [editing]);

  async function revoke(): Promise<void> {
    await send();
    setEditing('none');
  }

  return (
    <li
      className={`paired-counter ${revoked ? 'paired-counter-revoked' : ''}`.trim()}
      data-testid="counter-row"
      aria-label={counter.name}
    >
      <div className="paired-counter-head">
        <strong className="paired-counter-name">{counter.name}</strong>
        <span>
          till <span className="mono">{counter.tillId}</span>
        </span>
        {revoked && counter.revokedAt !== null && (
          <span className="paired-counter-removed">
            Revoked {formatDateTime(counter.revokedAt)}
          </span>
        )}
      </div>
      <dl className="paired-counter-details">
        <dt>Paired</dt>
        <dd>{formatDateTime(counter.pairedAt)}</dd>
        <dt>Last contact</dt>
        <dd data-testid="counter-last-contact">{lastContactWords(counter, now)}</dd>
      </dl>
      {!revoked && editing === 'none' && (
        <div className="actions">
          <button
            type="button"
            className="button secondary small"
            onClick={() => {
              showError(null);
              setEditing('rename');
            }}
          >
            Rename
          </button>
          <button
            type="button"
            className="button danger small"
            onClick={() => {
              showError(null);
              setEditing('revoke');
            }}
          >
            Revoke
          </button>
        </div>
      )}
      {!revoked && editing === 'revoke' && (
        <div className="confirm" role="group" aria-label={`Revoke ${counter.name}?`}>
          <p>
            Revoke {counter.name}? Its screen stops working at once. To use it again, pair it with a
            new link.
          </p>
          <button
            ref={confirmRef}
            type="button"
            className="button danger"
            disabled={busy}
            onClick={() => void revoke()}
          >
            Yes, revoke
          </button>
          <button type="button" className="button secondary" onClick={() => setEditing('none')}>
            No, keep it
          </button>
        </div>
      )}
      {!revoked && editing === 'rename' && (
        <CounterEditForm counter={counter} onDone={() => setEditing('none')} onHub={onHub} />
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </li>
  );
}
