import { useState } from 'react';
import type { BridgeError } from '#shared/bridge/contract';
import { payeeNameOf, type GoLiveCheckView } from '#shared/go-live';
import type { KeyedEnvironment, Settings } from '#shared/settings-schema';
import type { SecretsView, SettingsView } from '#shared/views';
import { useBridge } from '../../bridge-context';
import { failureOf } from '../../hooks/use-bridge-call';
import { serverFieldMessage } from './settings-form';

export type CallbackChoice = 'ngrok' | 'public-url' | 'polling-only';

/** What the flow's form holds: the profile, the route, and keys typed but not yet sent. */
export interface GoLiveDraft {
  readonly baseUrl: string;
  readonly payoutBaseUrl: string;
  readonly merchantId: string;
  readonly merchantCategory: string;
  readonly accountName: string;
  readonly payoutAccountId: string;
  readonly secretKey: string;
  readonly accessToken: string;
  readonly route: CallbackChoice;
  readonly publicUrl: string;
  readonly listenerPort: string;
  readonly ngrokAuthtoken: string;
  readonly ngrokDomain: string;
}

export function draftFor(settings: Settings, environment: KeyedEnvironment): GoLiveDraft {
  const profile = settings.profiles[environment];
  return {
    baseUrl: profile.baseUrl,
    payoutBaseUrl: profile.payoutBaseUrl,
    merchantId: profile.merchantId,
    merchantCategory: profile.merchantCategory,
    accountName: payeeNameOf(profile.accountName, settings.shop.name),
    payoutAccountId: profile.payoutAccountId,
    secretKey: '',
    accessToken: '',
    route: settings.callbacks.mode,
    publicUrl: settings.callbacks.publicUrl,
    listenerPort: String(settings.callbacks.listenerPort),
    ngrokAuthtoken: '',
    ngrokDomain: settings.callbacks.ngrokDomain,
  };
}

/** The saveConnection input for a draft: a key left blank keeps the saved one. */
export function saveInput(environment: KeyedEnvironment, draft: GoLiveDraft) {
  const key = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const port = Number(draft.listenerPort.trim() || '0');
  return {
    environment,
    profile: {
      baseUrl: draft.baseUrl,
      payoutBaseUrl: draft.payoutBaseUrl,
      merchantId: draft.merchantId,
      merchantCategory: draft.merchantCategory,
      accountName: draft.accountName,
      payoutAccountId: draft.payoutAccountId,
    },
    callbacks: {
      mode: draft.route,
      ...(draft.route === 'public-url' ? { publicUrl: draft.publicUrl } : {}),
      ...(draft.route === 'ngrok' ? { ngrokDomain: draft.ngrokDomain } : {}),
      ...(Number.isInteger(port) ? { listenerPort: port } : {}),
    },
    secrets: {
      secretKey: key(draft.secretKey),
      accessToken: key(draft.accessToken),
      ...(draft.route === 'ngrok' ? { ngrokAuthtoken: key(draft.ngrokAuthtoken) } : {}),
    },
  };
}

export interface GoLiveState {
  readonly busy: 'saving' | 'checking' | 'switching' | null;
  readonly saved: boolean;
  readonly problem: { readonly field: string | null; readonly message: string } | null;
  readonly check: GoLiveCheckView | null;
  readonly secrets: SecretsView['secrets'] | null;
  readonly openSales: number;
}

/** The flow's calls: one Save, one "Check everything", and the switch as the last step. */
export function useGoLive(onSaved: (view: SettingsView) => void) {
  const bridge = useBridge();
  const [state, setState] = useState<GoLiveState>({
    busy: null,
    saved: false,
    problem: null,
    check: null,
    secrets: null,
    openSales: 0,
  });

  function failed(error: BridgeError): void {
    setState((current) => ({
      ...current,
      busy: null,
      problem: {
        field: error.field ?? null,
        message: error.field ? serverFieldMessage(error) : failureOf(error).words,
      },
    }));
  }

  async function save(environment: KeyedEnvironment, draft: GoLiveDraft): Promise<boolean> {
    setState((current) => ({ ...current, busy: 'saving', problem: null, check: null }));
    const result = await bridge.saveConnection(saveInput(environment, draft));
    if (!result.ok) {
      failed(result.error);
      return false;
    }
    setState((current) => ({
      ...current,
      busy: null,
      saved: true,
      secrets: result.value.secrets.secrets,
      openSales: result.value.openSales,
    }));
    onSaved(result.value.settings);
    return true;
  }

  /** `trialOnLive`: LIVE's trial account, ticked by the owner (STAGING always makes one). */
  async function checkEverything(
    environment: KeyedEnvironment,
    trialOnLive: boolean,
  ): Promise<void> {
    setState((current) => ({ ...current, busy: 'checking', problem: null }));
    const result = await bridge.checkEverything(
      environment === 'production' ? { environment, trialAccount: trialOnLive } : { environment },
    );
    if (!result.ok) {
      failed(result.error);
      return;
    }
    setState((current) => ({
      ...current,
      busy: null,
      check: result.value,
      openSales: result.value.openSales,
    }));
  }

  async function switchTo(environment: KeyedEnvironment): Promise<void> {
    setState((current) => ({ ...current, busy: 'switching', problem: null }));
    const result = await bridge.updateSettings({ patch: { environment } });
    if (!result.ok) {
      failed(result.error);
      return;
    }
    setState((current) => ({ ...current, busy: null }));
    onSaved(result.value);
  }

  function edited(): void {
    setState((current) =>
      current.saved || current.check ? { ...current, saved: false, check: null } : current,
    );
  }

  return { state, save, checkEverything, switchTo, edited };
}
