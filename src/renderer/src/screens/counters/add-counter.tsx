import { useId, useRef, useState, type FormEvent } from 'react';
import { PAIRING_TTL_MS, type HubView, type PairingLinkView } from '#shared/hub';
import { QrImage } from '../../components/qr-image';
import { formatCountdown } from '../../format';
import { useNow } from '../../use-now';
import { selectContents } from '../../components/select-contents';
import { usePairingLink } from './use-counters';

/** Whether a counter of the link's name paired after the link was made (the list shows it). */
function pairedWith(link: PairingLinkView, hub: HubView): boolean {
  const issuedAt = link.expiresAt - PAIRING_TTL_MS;
  return hub.counters.some((counter) => counter.name === link.name && counter.pairedAt >= issuedAt);
}

/**
 * "Add counter": a name, then a one-time pairing link for it (also as a QR code for a tablet's
 * camera), good for PAIRING_TTL_MS and one use.
 */
export function AddCounter({ hub }: { readonly hub: HubView }) {
  const nameId = useId();
  const [name, setName] = useState('');
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const pairing = usePairingLink();
  const { busy, link } = pairing;
  // Main's refusal shows beside the name when it is about the name.
  const aboutName = pairing.errorField === 'name';
  const nameError = nameProblem ?? (aboutName ? pairing.error : null);
  const error = aboutName ? null : pairing.error;

  async function add(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (busy) return;
    pairing.showError(null);
    setNameProblem(null);
    if (name.trim() === '') {
      setNameProblem('Name the counter');
      return;
    }
    if (await pairing.create(name.trim())) setName('');
  }

  const errorId = `${nameId}-error`;
  return (
    <section className="panel add-counter" aria-labelledby="add-counter-heading">
      <h3 id="add-counter-heading">Add a counter</h3>
      <form className="add-counter-form" onSubmit={(event) => void add(event)} noValidate>
        <div className={`field ${nameError ? 'field-invalid' : ''}`}>
          <label htmlFor={nameId}>Counter name</label>
          <input
            id={nameId}
            type="text"
            autoComplete="off"
            maxLength={40}
            placeholder="Front counter"
            value={name}
            aria-invalid={nameError !== null}
            aria-describedby={nameError ? errorId : undefined}
            onChange={(event) => {
              setName(event.target.value);
              setNameProblem(null);
              if (aboutName) pairing.showError(null);
            }}
          />
          {nameError && (
            <p id={errorId} className="field-error">
              {nameError}
            </p>
          )}
        </div>
        <button type="submit" className="button primary" disabled={busy || !hub.lan.running}>
          Add counter
        </button>
      </form>
      {!hub.lan.running && (
        <p className="muted">Turn the LAN listener on first: counters reach the hub through it.</p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {link &&
        (pairedWith(link, hub) ? (
          <p className="saved-notice" role="status">
            {link.name} is paired.
          </p>
        ) : (
          <PairingLinkPanel link={link} />
        ))}
    </section>
  );
}

/** The link, its QR code and its time left; gone once it expires (it is useless then). */
function PairingLinkPanel({ link }: { readonly link: PairingLinkView }) {
  const now = useNow();
  const left = link.expiresAt - now;
  const [copied, setCopied] = useState<string | null>(null);
  const urlRef = useRef<HTMLElement>(null);

  async function copy(): Promise<void> {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(link.url);
      setCopied('Copied');
    } catch {
      selectContents(urlRef.current);
      setCopied('Copy is not available here. The link is selected: press Ctrl+C.');
    }
  }

  if (left <= 0) {
    return (
      <p className="notice" role="status" data-testid="pairing-expired">
        The link for {link.name} has expired. Add the counter again for a new link.
      </p>
    );
  }
  return (
    <div className="pairing-link" role="group" aria-label={`Pairing link for ${link.name}`}>
      <p>
        On the counter for <strong>{link.name}</strong>, open this link in the browser or scan the
        QR code with its camera. Valid {PAIRING_TTL_MS / 60_000} minutes, once:{' '}
        <span role="timer" data-testid="pairing-expiry">
          {formatCountdown(left)}
        </span>{' '}
        left.
      </p>
      <div className="pairing-link-row">
        <code className="mono pairing-url" data-testid="pairing-url" ref={urlRef}>
          {link.url}
        </code>
        <button type="button" className="button secondary" onClick={() => void copy()}>
          Copy link
        </button>
        <span role="status" className="copy-message">
          {copied}
        </span>
      </div>
      <QrImage text={link.url} label="Pairing link (QR)" testId="pairing-qr" />
      <p className="muted">
        The counter&apos;s browser warns about the hub&apos;s certificate once: its fingerprint must
        match the one shown for the LAN listener above.
      </p>
    </div>
  );
}
