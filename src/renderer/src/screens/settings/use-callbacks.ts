import { useState } from 'react';
import type { BridgeResult } from '#shared/bridge/contract';
import type { ConfiguredCallbackMode, Settings } from '#shared/settings-schema';
import { keyFieldLabel } from '#shared/settings/key-labels';
import type { CallbackHealthView, SecretStatusView, SettingsView } from '#shared/views';
import { useBridge } from '../../bridge-context';
import { failureOf } from '../../hooks/use-bridge-call';
import { parseNumber, useSettingsSection } from './settings-form';
import { useSecretDrafts, type SecretTarget } from './use-secret-drafts';
import type { SecretKey } from './use-settings-data';

export interface CallbacksDraft {
  readonly mode: ConfiguredCallbackMode;
  readonly publicUrl: string;
  readonly listenerPort: string;
  readonly ngrokDomain: string;
  readonly allowCidrs: string;
  readonly basicAuthUser: string;
}

export const NGROK_AUTHTOKEN: SecretTarget = {
  scope: 'global',
  name: 'ngrokAuthtoken',
  label: keyFieldLabel('ngrokAuthtoken'),
};
export const NGROK_PASSWORD: SecretTarget = {
  scope: 'global',
  name: 'ngrokBasicAuthPassword',
  label: keyFieldLabel('ngrokBasicAuthPassword'),
};

function draftOf(callbacks: Settings['callbacks']): CallbacksDraft {
  return {
    mode: callbacks.mode,
    publicUrl: callbacks.publicUrl,
    listenerPort: String(callbacks.listenerPort),
    ngrokDomain: callbacks.ngrokDomain,
    allowCidrs: callbacks.ngrokAllowCidrs.join('\n'),
    basicAuthUser: callbacks.ngrokBasicAuthUser,
  };
}

/** One range a line; blank lines are only spacing. */
export function linesOf(text: string): readonly string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * The Callbacks page's form: the settings and the two ngrok secrets, all sent by one Save (the
 * settings first, then each secret typed).
 */
export function useCallbacksForm(
  settings: Settings,
  onSaved: (view: SettingsView) => void,
  onSecretChanged: (key: SecretKey, status: SecretStatusView) => void,
) {
  const bridge = useBridge();
  const [draft, setDraft] = useState<CallbacksDraft>(() => draftOf(settings.callbacks));
  const secrets = useSecretDrafts(
    bridge,
    draft.mode === 'ngrok' ? [NGROK_AUTHTOKEN, NGROK_PASSWORD] : [],
    onSecretChanged,
  );
  const cidrs = linesOf(draft.allowCidrs);
  const port = parseNumber(draft.listenerPort);
  const section = useSettingsSection({
    settings,
    patch: {
      callbacks: {
        mode: draft.mode,
        publicUrl: draft.publicUrl,
        ngrokDomain: draft.ngrokDomain,
        ngrokAllowCidrs: cidrs,
        ngrokBasicAuthUser: draft.basicAuthUser,
        ...(port === null ? {} : { listenerPort: port }),
      },
    },
    localErrors:
      port === null
        ? { 'callbacks.listenerPort': 'Enter a port number (0 for any free port)' }
        : {},
    fields: [
      'callbacks.mode',
      'callbacks.publicUrl',
      'callbacks.listenerPort',
      'callbacks.ngrokDomain',
      'callbacks.ngrokAllowCidrs',
      'callbacks.ngrokBasicAuthUser',
    ],
    onSaved: (saved) => {
      setDraft(draftOf(saved.settings.callbacks));
      onSaved(saved);
    },
    after: () => secrets.send(),
  });
  const cidrProblems = section
    .itemErrorsOf('callbacks.ngrokAllowCidrs')
    .map(({ index, message }) => `"${cidrs[index] ?? `line ${index + 1}`}": ${message}`)
    .join(' ');

  function change<K extends keyof CallbacksDraft>(key: K, value: CallbacksDraft[K]): void {
    setDraft((current) => ({ ...current, [key]: value }));
  }

  return { draft, change, section, secrets, cidrProblems };
}

/** A call that acts at once (rotate, self-test): busy while it runs, its words after. */
function useAction<T>(run: () => Promise<BridgeResult<T>>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function go(): Promise<{ readonly value: T } | null> {
    setBusy(true);
    setError(null);
    const result = await run();
    setBusy(false);
    if (result.ok) return { value: result.value };
    setError(failureOf(result.error).words);
    return null;
  }
  return { busy, error, go };
}

/** "Rotate callback address" and "Test callbacks": each acts at once, apart from the Save. */
export function useCallbackActions(
  onHealth: (health: CallbackHealthView) => void,
  onRotated: () => Promise<void>,
) {
  const bridge = useBridge();
  const [rotateNotice, setRotateNotice] = useState<string | null>(null);
  const rotation = useAction(() => bridge.rotateCallbackToken({}));
  const selfTest = useAction(() => bridge.testCallbacks({}));

  async function rotate(): Promise<void> {
    setRotateNotice(null);
    if ((await rotation.go()) === null) return;
    setRotateNotice(
      'New sales now get a new callback address. The old address keeps working for a day, so sales already waiting still get their callbacks.',
    );
    await onRotated();
  }

  async function test(): Promise<void> {
    const done = await selfTest.go();
    if (done !== null) onHealth(done.value);
  }

  return {
    rotate,
    rotating: rotation.busy,
    rotateNotice,
    rotateError: rotation.error,
    test,
    testing: selfTest.busy,
    testError: selfTest.error,
  };
}
