import { useCallback, useEffect, useState } from 'react';
import type { AppInfo } from '#shared/bridge/contract';
import { KEYED_ENVIRONMENTS, type KeyedEnvironment } from '#shared/settings-schema';
import type {
  CallbackHealthView,
  SecretStatusView,
  SecretsView,
  SettingsView,
} from '#shared/views';
import { useBridge, useBridgeEvent } from '../../bridge-context';
import { applyTunnelEvent, type CallbackStatus } from '../../components/header';
import { failureOf } from '../../hooks/use-bridge-call';

export type SecretKey =
  | `${KeyedEnvironment}.${'secretKey' | 'accessToken'}`
  | 'global.ngrokAuthtoken'
  | 'global.ngrokBasicAuthPassword';
export type SecretStatuses = Readonly<Partial<Record<SecretKey, SecretStatusView>>>;

export interface SettingsViewRead {
  readonly view: SettingsView | null;
  readonly loadError: string | null;
  /** Reads the settings again (the callback address follows the tunnel). */
  readonly readView: () => Promise<void>;
  /** A section saved: its answer is the settings now. */
  readonly saved: (next: SettingsView) => void;
}

/** The settings as main has them, read when the screen opens and taken from every save. */
export function useSettingsView(
  onSettingsChanged?: (view: SettingsView) => void,
): SettingsViewRead {
  const bridge = useBridge();
  const [view, setView] = useState<SettingsView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const readView = useCallback(async () => {
    const result = await bridge.getSettings({});
    if (result.ok) {
      setView(result.value);
      setLoadError(null);
    } else {
      setLoadError(failureOf(result.error).words);
    }
  }, [bridge]);

  useEffect(() => {
    let live = true;
    void bridge.getSettings({}).then((result) => {
      if (!live) return;
      if (result.ok) setView(result.value);
      else setLoadError(failureOf(result.error).words);
    });
    return () => {
      live = false;
    };
  }, [bridge]);

  function saved(next: SettingsView): void {
    setView(next);
    onSettingsChanged?.(next);
  }

  return { view, loadError, readView, saved };
}

export interface CallbackRead {
  readonly callback: CallbackStatus | null;
  readonly health: CallbackHealthView | null;
  readonly setHealth: (health: CallbackHealthView) => void;
}

/** How the provider reaches this till, and whether it does, following main's events. */
export function useCallbackStatus(onTunnel: () => void): CallbackRead {
  const bridge = useBridge();
  const [callback, setCallback] = useState<CallbackStatus | null>(null);
  const [health, setHealth] = useState<CallbackHealthView | null>(null);

  useEffect(() => {
    let live = true;
    void bridge.getStatus({}).then((result) => {
      if (!live || !result.ok) return;
      setCallback(result.value.callback);
      setHealth(result.value.callbackHealth);
    });
    return () => {
      live = false;
    };
  }, [bridge]);

  useBridgeEvent('tunnel', (tunnel) => {
    setCallback((current) => (current ? applyTunnelEvent(current, tunnel) : current));
    onTunnel();
  });
  useBridgeEvent('callback-health', setHealth);

  return { callback, health, setHealth };
}

export interface SecretsRead {
  /** Only whether each secret is set (and its last four characters), never the secret. */
  readonly statuses: SecretStatuses;
  readonly box: SecretsView['box'] | null;
  readonly secretsError: string | null;
  readonly setStatus: (key: SecretKey, status: SecretStatusView) => void;
}

/** The status of every saved key, and how this computer keeps them. */
export function useSecretStatuses(): SecretsRead {
  const bridge = useBridge();
  const [statuses, setStatuses] = useState<SecretStatuses>({});
  const [box, setBox] = useState<SecretsView['box'] | null>(null);
  const [secretsError, setSecretsError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    for (const environment of KEYED_ENVIRONMENTS) {
      void bridge.getSecrets({ environment }).then((result) => {
        if (!live) return;
        if (!result.ok) {
          setSecretsError(failureOf(result.error).words);
          return;
        }
        const { secrets } = result.value;
        setBox(result.value.box);
        setStatuses((current) => ({
          ...current,
          [`${environment}.secretKey`]: secrets.secretKey,
          [`${environment}.accessToken`]: secrets.accessToken,
          'global.ngrokAuthtoken': secrets.ngrokAuthtoken,
          'global.ngrokBasicAuthPassword': secrets.ngrokBasicAuthPassword,
        }));
      });
    }
    return () => {
      live = false;
    };
  }, [bridge]);

  function setStatus(key: SecretKey, status: SecretStatusView): void {
    setStatuses((current) => ({ ...current, [key]: status }));
  }

  return { statuses, box, secretsError, setStatus };
}

/** Which shell this page runs in (null until main says): pages of one shell only follow it. */
export function useShellKind(): AppInfo['shell'] | null {
  const bridge = useBridge();
  const [shell, setShell] = useState<AppInfo['shell'] | null>(null);
  useEffect(() => {
    let live = true;
    void bridge.getAppInfo({}).then((result) => {
      if (live && result.ok) setShell(result.value.shell);
    });
    return () => {
      live = false;
    };
  }, [bridge]);
  return shell;
}
