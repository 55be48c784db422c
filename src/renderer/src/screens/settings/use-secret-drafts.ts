import { useId, useState } from 'react';
import type { WindowApi } from '#shared/bridge/contract';
import { keyLabelInText } from '#shared/settings/key-labels';
import type { SecretStatusView } from '#shared/views';
import { failureOf } from '../../hooks/use-bridge-call';
import { useUnsaved } from './unsaved';
import type { SecretKey } from './use-settings-data';

/** Which secret: one of an environment's two keys, or one of the two global ngrok secrets. */
export type SecretTarget =
  | {
      readonly scope: 'staging' | 'production';
      readonly name: 'secretKey' | 'accessToken';
      readonly label: string;
    }
  | {
      readonly scope: 'global';
      readonly name: 'ngrokAuthtoken' | 'ngrokBasicAuthPassword';
      readonly label: string;
    };

export function secretKeyOf(target: SecretTarget): SecretKey {
  return `${target.scope}.${target.name}` as SecretKey;
}

export interface SecretDrafts {
  /** What is typed into a secret's field, not sent yet. */
  readonly valueOf: (key: SecretKey) => string;
  readonly errorOf: (key: SecretKey) => string | null;
  readonly noticeOf: (key: SecretKey) => string | null;
  readonly type: (key: SecretKey, value: string) => void;
  /** Sends every secret typed, one after another; the problem in words, or null. */
  readonly send: () => Promise<string | null>;
  /** Removes a saved secret at once (after the field's own question). */
  readonly remove: (target: SecretTarget) => Promise<void>;
  readonly busy: boolean;
}

/**
 * The keys typed on a Settings page, sent by the page's one Save. Each goes to main by itself
 * (setSecret) and only its status comes back; a refused one stays typed with its message next to
 * it, so bad input loses nothing, and a sent one leaves the screen.
 */
export function useSecretDrafts(
  bridge: WindowApi,
  targets: readonly SecretTarget[],
  onChanged: (key: SecretKey, status: SecretStatusView) => void,
): SecretDrafts {
  const id = useId();
  const unsaved = useUnsaved(`${id}-secrets`);
  const [values, setValues] = useState<Readonly<Record<string, string>>>({});
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [notices, setNotices] = useState<Readonly<Record<string, string>>>({});
  const [busy, setBusy] = useState(false);

  function type(key: SecretKey, value: string): void {
    const next = { ...values, [key]: value };
    setValues(next);
    setErrors((current) => omit(current, key));
    setNotices((current) => omit(current, key));
    unsaved.mark(Object.values(next).some((typed) => typed.trim() !== ''));
  }

  async function sendOne(target: SecretTarget, value: string | null): Promise<boolean> {
    const key = secretKeyOf(target);
    const { label: _label, ...input } = target;
    const result = await bridge.setSecret({ ...input, value });
    if (!result.ok) {
      setErrors((current) => ({ ...current, [key]: failureOf(result.error).words }));
      return false;
    }
    setValues((current) => omit(current, key));
    setNotices((current) => ({ ...current, [key]: value === null ? 'Removed.' : 'Saved.' }));
    onChanged(key, result.value);
    return true;
  }

  async function send(): Promise<string | null> {
    const typed = targets.filter((target) => (values[secretKeyOf(target)] ?? '').trim() !== '');
    setBusy(true);
    const refused: string[] = [];
    for (const target of typed) {
      const ok = await sendOne(target, (values[secretKeyOf(target)] ?? '').trim());
      if (!ok) refused.push(keyLabelInText(target.name));
    }
    setBusy(false);
    unsaved.mark(refused.length > 0);
    return refused.length === 0
      ? null
      : `The rest is saved, but not the ${refused.join(' and the ')}: see the message next to it.`;
  }

  async function remove(target: SecretTarget): Promise<void> {
    setBusy(true);
    await sendOne(target, null);
    setBusy(false);
  }

  return {
    valueOf: (key) => values[key] ?? '',
    errorOf: (key) => errors[key] ?? null,
    noticeOf: (key) => notices[key] ?? null,
    type,
    send,
    remove,
    busy,
  };
}

function omit(record: Readonly<Record<string, string>>, key: string): Record<string, string> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}
