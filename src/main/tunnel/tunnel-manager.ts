import type { Logger } from '#main/logging/logger';
import { scrubSecrets } from './scrub';
import {
  TunnelError,
  type TunnelConnectOptions,
  type TunnelDriver,
  type TunnelEvent,
  type TunnelSession,
  type TunnelStatus,
} from './types';

/** Schedules a callback; returns a function that cancels it. */
export type ScheduleFn = (callback: () => void, ms: number) => () => void;

export interface TunnelManagerOptions {
  readonly driver: TunnelDriver;
  readonly logger: Logger;
  /** Waits between attempts after a failure or a drop; the last one repeats. */
  readonly reconnectDelaysMs?: readonly number[];
  readonly schedule?: ScheduleFn;
}

export interface TunnelManager {
  /**
   * (Re)starts the tunnel with these settings and resolves with the status after the first
   * attempt (online or error). Later attempts happen on their own.
   */
  start(options: TunnelConnectOptions): Promise<TunnelStatus>;
  /** Closes the tunnel and stops reconnecting; status becomes off. */
  stop(): Promise<void>;
  status(): TunnelStatus;
  subscribe(listener: (event: TunnelEvent) => void): () => void;
  /** On quit: stop, and refuse any later start. */
  close(): Promise<void>;
}

export const DEFAULT_RECONNECT_DELAYS_MS: readonly number[] = [
  1_000, 2_000, 5_000, 15_000, 30_000, 60_000,
];

/** Failures that retrying cannot fix: the shop has to change a setting first. */
const NEEDS_THE_SHOP: ReadonlySet<TunnelError['code']> = new Set([
  'BAD_AUTHTOKEN',
  'DOMAIN_NOT_ALLOWED',
  'INVALID_SETTINGS',
]);

const defaultSchedule: ScheduleFn = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * Keeps the tunnel up: off → connecting → online, or error with a retry after a backoff. A
 * dropped session is closed and replaced by a fresh one (same backoff). When the public URL of
 * a new session differs from the last one that was online, a 'url-changed' event tells the
 * sales engine that callbacks for sales created earlier will not arrive, so those sales poll.
 * The authtoken and the basic-auth password never reach a status, an event or the log.
 */
export function createTunnelManager(options: TunnelManagerOptions): TunnelManager {
  const { driver, logger } = options;
  const delays = options.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS;
  const schedule = options.schedule ?? defaultSchedule;
  const listeners = new Set<(event: TunnelEvent) => void>();
  let current: TunnelStatus = { state: 'off' };
  /** Bumped by every start and stop: work begun under an older generation is discarded. */
  let generation = 0;
  let settings: TunnelConnectOptions | null = null;
  let session: TunnelSession | null = null;
  let cancelRetry: (() => void) | null = null;
  let failures = 0;
  let lastOnlineUrl: string | null = null;
  let closed = false;

  const emit = (event: TunnelEvent) => tell(listeners, logger, event);

  function setStatus(status: TunnelStatus): void {
    current = status;
    emit({ type: 'status', status });
  }

  function failed(gen: number, error: TunnelError): void {
    logger.warn({ code: error.code, detail: error.detail ?? error.message }, 'tunnel: not online');
    if (NEEDS_THE_SHOP.has(error.code)) {
      setStatus({ state: 'error', code: error.code, message: error.message });
      return;
    }
    const retryInMs = delays[Math.min(failures, delays.length - 1)] ?? 30_000;
    failures += 1;
    setStatus({ state: 'error', code: error.code, message: error.message, retryInMs });
    cancelRetry = schedule(() => {
      cancelRetry = null;
      if (gen === generation) void attempt(gen);
    }, retryInMs);
  }

  async function attempt(gen: number, announce = true): Promise<void> {
    const options = settings;
    if (options === null) return;
    if (announce) setStatus({ state: 'connecting' });
    let opened: TunnelSession;
    try {
      opened = await driver.connect(options);
    } catch (error) {
      if (gen === generation) failed(gen, asTunnelError(error, secretsOf(options)));
      return;
    }
    if (gen !== generation) {
      // Stopped or restarted while connecting: this session is nobody's.
      await opened.close().catch(() => undefined);
      return;
    }
    session = opened;
    failures = 0;
    opened.onClosed((error) => {
      if (gen !== generation || session !== opened) return;
      session = null;
      void opened.close().catch(() => undefined);
      failed(
        gen,
        asTunnelError(
          error ?? new TunnelError('NO_NETWORK', 'The ngrok tunnel dropped — reconnecting'),
          secretsOf(options),
        ),
      );
    });
    const previousUrl = lastOnlineUrl;
    lastOnlineUrl = opened.url;
    logger.info({ url: opened.url }, 'tunnel: online');
    setStatus({ state: 'online', url: opened.url });
    if (previousUrl !== null && previousUrl !== opened.url) {
      logger.warn({ previousUrl, url: opened.url }, 'tunnel: public URL changed');
      emit({ type: 'url-changed', previousUrl, url: opened.url });
    }
  }

  async function halt(): Promise<void> {
    generation += 1;
    settings = null;
    failures = 0;
    cancelRetry?.();
    cancelRetry = null;
    const open = session;
    session = null;
    if (open !== null) await open.close().catch(() => undefined);
  }

  return {
    async start(options) {
      if (closed) throw new TunnelError('INVALID_SETTINGS', 'The tunnel manager is closed');
      // halt() bumps the generation at once; the status says "connecting" before any await.
      const halted = halt();
      const gen = generation;
      settings = options;
      setStatus({ state: 'connecting' });
      await halted;
      if (gen === generation) await attempt(gen, false);
      return current;
    },
    async stop() {
      await halt();
      if (current.state !== 'off') {
        logger.info('tunnel: off');
        setStatus({ state: 'off' });
      }
    },
    status: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      await halt();
      if (current.state !== 'off') setStatus({ state: 'off' });
      listeners.clear();
    },
  };
}

/** The secrets a tunnel error must never carry. */
function secretsOf(options: TunnelConnectOptions | null): readonly (string | undefined)[] {
  return [options?.authtoken, options?.basicAuth?.password];
}

/** Any failure as a TunnelError, its words scrubbed of the secrets. */
function asTunnelError(error: unknown, secrets: readonly (string | undefined)[]): TunnelError {
  if (error instanceof TunnelError) {
    return new TunnelError(
      error.code,
      scrubSecrets(error.message, secrets),
      error.detail === undefined ? undefined : scrubSecrets(error.detail, secrets),
    );
  }
  const text = error instanceof Error ? error.message : String(error);
  return new TunnelError('UNKNOWN', 'The tunnel could not start', scrubSecrets(text, secrets));
}

/** Every listener hears the event; one that throws is logged and the others still hear it. */
function tell(
  listeners: ReadonlySet<(event: TunnelEvent) => void>,
  logger: Logger,
  event: TunnelEvent,
): void {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch (error) {
      logger.error({ err: error }, 'tunnel: status listener failed');
    }
  }
}
