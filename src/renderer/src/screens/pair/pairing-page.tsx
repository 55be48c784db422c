import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { PairingResult } from '#shared/hub';
import { Fingerprint } from '../../components/fingerprint';
import { hashParam } from '../../routes';
import { PAIRING_CODE, requestPairing, type PairingOutcome } from './pair-request';

const ASK_FOR_A_NEW_LINK =
  'A pairing link works once, for 10 minutes. The owner makes a new one at the hub: Counters, then "Add counter".';

/**
 * The page a pairing link opens on a counter (`#/pair&code=…&fp=…`): it trades the code for
 * this counter's token at once, then hands the token on (`onPaired`), which keeps it and shows
 * the sale screen. The page has no bridge yet: it is the one request made without a token.
 */
export function PairingPage({
  fetchImpl,
  onPaired,
}: {
  readonly fetchImpl: typeof fetch;
  readonly onPaired: (result: PairingResult) => void;
}) {
  const [link] = useState(() => ({
    code: hashParam(window.location.hash, 'code'),
    fingerprint: hashParam(window.location.hash, 'fp'),
  }));
  const usable = link.code !== null && PAIRING_CODE.test(link.code);
  const [outcome, setOutcome] = useState<PairingOutcome | null>(null);
  // A code works once: a second mount (React's strict mode) must wait for the same request.
  const attempt = useRef<Promise<PairingOutcome> | null>(null);
  const handOn = useEffectEvent((result: PairingResult) => onPaired(result));

  useEffect(() => {
    if (!usable || link.code === null) return;
    attempt.current ??= requestPairing(link.code, fetchImpl);
    let live = true;
    void attempt.current.then((result) => {
      if (!live) return;
      setOutcome(result);
      if (result.ok) handOn(result.result);
    });
    return () => {
      live = false;
    };
  }, [usable, link.code, fetchImpl]);

  return (
    <div className="app pairing-app">
      <header className="app-header">
        <div className="header-row">
          <h1>Transfer Till</h1>
        </div>
      </header>
      <main id="main">
        <section className="screen panel pairing" aria-labelledby="pairing-heading">
          <h2 id="pairing-heading">Pair this screen with the hub</h2>
          {!usable ? (
            <div role="alert" className="error">
              <p>This pairing link is not complete.</p>
              <p>{ASK_FOR_A_NEW_LINK}</p>
            </div>
          ) : outcome === null ? (
            <p role="status">Pairing with the hub…</p>
          ) : outcome.ok ? (
            <p role="status">Paired as {outcome.result.counter.name}.</p>
          ) : (
            <div role="alert" className="error" data-testid="pairing-failed">
              <p>{outcome.message}</p>
              <p>{ASK_FOR_A_NEW_LINK}</p>
            </div>
          )}
          {link.fingerprint && (
            <p className="muted pairing-fingerprint">
              To be sure this is your shop&apos;s hub: the SHA-256 fingerprint of its certificate
              (the browser shows it in the certificate&apos;s details) must read{' '}
              <Fingerprint value={link.fingerprint} testId="pairing-fingerprint" /> If it does not,
              close this page and tell the owner.
            </p>
          )}
        </section>
      </main>
    </div>
  );
}
