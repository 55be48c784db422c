import type { ShellAccessView } from '#shared/bridge/contract';
import { useBridgeCall } from '../../hooks/use-bridge-call';
import { useShellKind } from './use-settings-data';

export interface ShellAccess {
  /** This page runs in the browser shell (the desktop app has no token). */
  readonly browserShell: boolean;
  readonly rotating: boolean;
  /** The new addresses, shown once after a rotation (none while one runs or after a refusal). */
  readonly rotated: ShellAccessView | null;
  readonly error: string | null;
  readonly rotate: () => Promise<void>;
}

/** The browser shell's access token: which shell this is, and making a new token. */
export function useShellAccess(): ShellAccess {
  const browserShell = useShellKind() === 'browser';
  const call = useBridgeCall<ShellAccessView>();
  const { run } = call;
  async function rotate(): Promise<void> {
    await run((bridge) => bridge.rotateShellToken({}));
  }
  return {
    browserShell,
    rotating: call.busy,
    rotated: call.busy || call.error !== null ? null : call.result,
    error: call.error,
    rotate,
  };
}
