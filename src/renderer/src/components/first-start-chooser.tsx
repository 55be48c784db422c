import { useState } from 'react';
import { KEYED_ENVIRONMENTS } from '#shared/environments';
import type { Settings } from '#shared/settings-schema';

/** This browser's answer, so that the question is asked once. */
const CHOICE_KEY = 'transfer-till.start-choice';

function storedChoice(): string | null {
  try {
    return window.localStorage.getItem(CHOICE_KEY);
  } catch {
    return null;
  }
}

function storeChoice(choice: 'sandbox' | 'connect'): void {
  try {
    window.localStorage.setItem(CHOICE_KEY, choice);
  } catch {
    // A browser that keeps nothing asks again next time: no harm.
  }
}

/** A till that has only ever practised: on the sandbox, no provider address entered yet. */
export function isFirstStart(settings: Settings): boolean {
  return (
    settings.environment === 'sandbox' &&
    KEYED_ENVIRONMENTS.every((environment) => settings.profiles[environment].baseUrl === '')
  );
}

/**
 * The first start's question: practise on the sandbox (nothing to set up), or connect the
 * shop's provider (the go-live flow). Asked once; either answer can be changed in Settings.
 */
export function FirstStartChooser({
  settings,
  onConnect,
}: {
  readonly settings: Settings;
  readonly onConnect: () => void;
}) {
  const [answered, setAnswered] = useState(() => storedChoice() !== null);
  if (answered || !isFirstStart(settings)) return null;
  return (
    <section className="panel first-start" aria-labelledby="first-start-heading">
      <h3 id="first-start-heading">How do you want to start?</h3>
      <p>
        Practise first: the sandbox is a pretend provider on this computer, so no real money moves.
        When the provider has given you your keys, connect it here in one go.
      </p>
      <div className="save-row">
        <button
          type="button"
          className="button primary"
          onClick={() => {
            storeChoice('sandbox');
            setAnswered(true);
          }}
        >
          Practise with the sandbox
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            storeChoice('connect');
            setAnswered(true);
            onConnect();
          }}
        >
          Connect my provider
        </button>
      </div>
    </section>
  );
}
