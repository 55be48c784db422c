import { isLoopbackHostname } from '#shared/provider-url';
import type { ConfiguredCallbackMode } from '#shared/settings-schema';
import type { CallbackRouteMode } from '#shared/views';
import type { TunnelStatus } from './types';
import { AppError, type AppErrorCode } from '#shared/errors';

export type CallbackUrlErrorCode = Extract<AppErrorCode, 'INVALID_PUBLIC_URL'>;

export class CallbackUrlError extends AppError<CallbackUrlErrorCode> {
  constructor(message: string) {
    super('INVALID_PUBLIC_URL', message);
    this.name = 'CallbackUrlError';
  }
}

/**
 * The callback URL given to the provider: a public base (the tunnel's URL, or the shop's own
 * reverse proxy, possibly under a sub-path) plus the listener's token path. The token is a
 * credential, so the URL must be https unless it stays on this machine (the local sandbox).
 */
export function callbackUrlFor(input: {
  readonly publicBaseUrl: string;
  readonly path: string;
}): string {
  let base: URL;
  try {
    base = new URL(input.publicBaseUrl.trim());
  } catch {
    throw new CallbackUrlError(`"${input.publicBaseUrl}" is not a web address`);
  }
  const loopback = isLoopbackHostname(base.hostname);
  if (base.protocol !== 'https:' && !(base.protocol === 'http:' && loopback)) {
    throw new CallbackUrlError(
      'The public address must start with https:// (the callback path is a secret)',
    );
  }
  if (base.search !== '' || base.hash !== '' || base.username !== '' || base.password !== '') {
    throw new CallbackUrlError(
      'The public address must not contain a query, a fragment or a password',
    );
  }
  if (!input.path.startsWith('/'))
    throw new CallbackUrlError('The callback path must start with /');
  const prefix = base.pathname.replace(/\/+$/, '');
  return `${base.origin}${prefix}${input.path}`;
}

/** Whether a shop-entered public URL is usable, for the settings screen. */
export function publicUrlProblem(publicBaseUrl: string): string | null {
  try {
    callbackUrlFor({ publicBaseUrl, path: '/callbacks/x' });
    return null;
  } catch (error) {
    return error instanceof CallbackUrlError ? error.message : String(error);
  }
}

export interface CallbackRouteInput {
  /** The sandbox provider runs on this machine and posts to the listener directly. */
  readonly sandbox: boolean;
  /** The listener's port and token path, or null when the listener is not running. */
  readonly listener: { readonly port: number; readonly path: string } | null;
  readonly configuredMode: ConfiguredCallbackMode;
  /** `callbacks.publicUrl`: the shop's own reverse proxy in front of the listener ('' if none). */
  readonly publicBaseUrl: string;
  readonly tunnel: TunnelStatus;
}

/** Where callbacks go now (its mode is what the status shows), or why they cannot come. */
export type CallbackRoute =
  | { readonly mode: Exclude<CallbackRouteMode, 'polling-only'>; readonly callbackUrl: string }
  | { readonly mode: 'polling-only'; readonly reason: string };

const POLLING = 'this sale is checked by polling';

/**
 * Where the provider should send callbacks for a sale created now. When the provider cannot
 * reach us (no tunnel or public URL, tunnel not online, listener down) sales still work: the
 * engine polls the status endpoint, and the sale screen shows the reason. (The provider requires
 * a callback_url even then; which one to send in polling-only mode is the engine's call.)
 */
export function decideCallbackRoute(input: CallbackRouteInput): CallbackRoute {
  if (input.listener === null) {
    return { mode: 'polling-only', reason: `The payment listener is not running: ${POLLING}` };
  }
  const { port, path } = input.listener;
  if (input.sandbox) {
    const callbackUrl = callbackUrlFor({ publicBaseUrl: `http://127.0.0.1:${port}`, path });
    return { mode: 'local-sandbox', callbackUrl };
  }
  switch (input.configuredMode) {
    case 'polling-only':
      return { mode: 'polling-only', reason: `No tunnel or public address is set up: ${POLLING}` };
    case 'public-url': {
      const problem = publicUrlProblem(input.publicBaseUrl);
      if (problem !== null) return { mode: 'polling-only', reason: `${problem}: ${POLLING}` };
      return {
        mode: 'public-url',
        callbackUrl: callbackUrlFor({ publicBaseUrl: input.publicBaseUrl, path }),
      };
    }
    case 'ngrok':
      return tunnelRoute(input.tunnel, path);
  }
}

function tunnelRoute(tunnel: TunnelStatus, path: string): CallbackRoute {
  switch (tunnel.state) {
    case 'online':
      return { mode: 'tunnel', callbackUrl: callbackUrlFor({ publicBaseUrl: tunnel.url, path }) };
    case 'off':
      return { mode: 'polling-only', reason: `The ngrok tunnel is off: ${POLLING}` };
    case 'connecting':
      return { mode: 'polling-only', reason: `The ngrok tunnel is still connecting: ${POLLING}` };
    case 'error':
      return { mode: 'polling-only', reason: `${tunnel.message}: ${POLLING}` };
  }
}
