import { AppError, type AppErrorCode } from '#shared/errors';

/** What the tunnel needs to expose the local webhook listener to the provider. */
export interface TunnelConnectOptions {
  /** The webhook listener's port on 127.0.0.1: the only thing the tunnel forwards to. */
  readonly localPort: number;
  /** From the secret store. Never logged, never in a status. */
  readonly authtoken: string;
  /** A reserved static domain (e.g. shop-name.ngrok.app) so the callback URL survives restarts. */
  readonly domain?: string;
  /** Only these source ranges may reach the tunnel (e.g. the provider's published addresses). */
  readonly allowCidrs?: readonly string[];
  /** Basic auth at the ngrok edge; the password is a secret (8 to 128 characters for ngrok). */
  readonly basicAuth?: { readonly username: string; readonly password: string };
}

export interface TunnelSession {
  /** The public base URL, e.g. https://shop-name.ngrok.app */
  readonly url: string;
  close(): Promise<void>;
  /** Called once when the session is lost without close() having been called. */
  onClosed(listener: (error?: TunnelError) => void): void;
}

/** The seam between the tunnel manager and ngrok: the only part a test has to fake. */
export interface TunnelDriver {
  connect(options: TunnelConnectOptions): Promise<TunnelSession>;
}

export type TunnelErrorCode = Extract<
  AppErrorCode,
  'BAD_AUTHTOKEN' | 'NO_NETWORK' | 'DOMAIN_NOT_ALLOWED' | 'INVALID_SETTINGS' | 'UNKNOWN'
>;

/** A tunnel failure with a message fit for the shop owner and no secret in it. */
export class TunnelError extends AppError<TunnelErrorCode> {
  constructor(
    code: TunnelErrorCode,
    message: string,
    /** The underlying error text, secrets scrubbed: for the log, not for people. */
    readonly detail?: string,
  ) {
    super(code, message);
    this.name = 'TunnelError';
  }
}

export type TunnelStatus =
  | { readonly state: 'off' }
  | { readonly state: 'connecting' }
  | { readonly state: 'online'; readonly url: string }
  | {
      readonly state: 'error';
      readonly code: TunnelErrorCode;
      readonly message: string;
      /** When the manager will try again by itself; absent when the shop must act first. */
      readonly retryInMs?: number;
    };

export type TunnelEvent =
  | { readonly type: 'status'; readonly status: TunnelStatus }
  /** The public URL differs from the last one: sales created with the old URL must poll. */
  | { readonly type: 'url-changed'; readonly previousUrl: string; readonly url: string };
