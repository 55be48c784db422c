import { randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CallbackDispatcher,
  DEFAULT_CALLBACK_RETRY_DELAYS_MS,
  DEFAULT_CALLBACK_TIMEOUT_MS,
} from './callback-dispatcher';
import { controlRoutes } from './control-api';
import { isHttpUrl } from './create-account-request';
import { SandboxError } from './errors';
import { FaultInjector } from './faults';
import { json, writeReply, type Reply } from './http-io';
import { newAccessToken, newSecretKey, randomDigits } from './ids';
import { parsePersonalityPatch, PersonalityStore, type Personality } from './personality';
import { payoutRoutes, virtualAccountRoutes } from './provider-api';
import { matchRoute, type Route } from './router';
import { openSandboxDb, type SandboxDb } from './sandbox-db';
import { SandboxEngine } from './sandbox-engine';
import { ServedFaults, ServedTally } from './served-faults';
import { sandboxStartLine, type SandboxStartLine } from './views';
import {
  readMerchant,
  readSetting,
  saveMerchant,
  writeSetting,
  type MerchantRow,
} from './sandbox-state';
import { AppError } from '#shared/errors';

export interface SandboxProviderOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** SQLite file; omitted means in memory (nothing survives close). */
  readonly dbPath?: string;
  readonly secretKey?: string;
  readonly accessToken?: string;
  readonly payoutAccountId?: string;
  /** Injectable clock (epoch ms) for expiry, pending settlement and dates. */
  readonly now?: () => number;
  readonly callbackRetryDelaysMs?: readonly number[];
  readonly callbackTimeoutMs?: number;
  readonly fallbackCallbackUrl?: string;
  readonly fetch?: typeof fetch;
  /** Seed of the fault generator, so a fault run replays exactly. Random when omitted. */
  readonly seed?: number;
  /** Readings applied at start over what the database remembers (then remembered too). */
  readonly personality?: Partial<Personality>;
  /** Real-time window that gathers callbacks for `callbacks: "reordered"`. */
  readonly callbackReorderWindowMs?: number;
  /** Unexpected errors (a bug, a disk failure); defaults to console.error. */
  readonly onError?: (error: unknown) => void;
}

export interface SandboxProvider {
  readonly baseUrl: string;
  readonly payoutBaseUrl: string;
  readonly controlUrl: string;
  readonly port: number;
  readonly secretKey: string;
  readonly accessToken: string;
  readonly payoutAccountId: string;
  readonly seed: number;
  /** The readings in force now (the control API can change them). */
  personality(): Personality;
  close(): Promise<void>;
}

export class SandboxConfigError extends AppError<'SANDBOX_INVALID_OPTION'> {
  constructor(message: string) {
    super('SANDBOX_INVALID_OPTION', message);
    this.name = 'SandboxConfigError';
  }
}

const HOST = '127.0.0.1';
const INJECTED_FAULT_MESSAGE = 'sandbox injected fault';
const FALLBACK_URL_KEY = 'fallback_callback_url';
const DEFAULT_OWNER_NAME = 'Sandbox Merchant';

interface Mount {
  readonly prefix: string;
  readonly routes: readonly Route[];
  /** Provider mounts take injected faults and answer `{status:'error', message}` only. */
  readonly provider: boolean;
}

function validateOptions(options: SandboxProviderOptions): void {
  const { port, payoutAccountId, secretKey, accessToken, fallbackCallbackUrl } = options;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new SandboxConfigError(`port must be an integer from 0 to 65535, got ${port}`);
  }
  if (payoutAccountId !== undefined && !/^\d{10}$/.test(payoutAccountId)) {
    throw new SandboxConfigError('payoutAccountId must be 10 digits');
  }
  for (const [name, value] of [
    ['secretKey', secretKey],
    ['accessToken', accessToken],
  ] as const) {
    if (value !== undefined && !/^\S{8,200}$/.test(value)) {
      throw new SandboxConfigError(`${name} must be 8 to 200 characters without spaces`);
    }
  }
  if (fallbackCallbackUrl !== undefined && !isHttpUrl(fallbackCallbackUrl)) {
    throw new SandboxConfigError('fallbackCallbackUrl must be an absolute http(s) URL');
  }
  for (const delay of options.callbackRetryDelaysMs ?? []) {
    if (!Number.isInteger(delay) || delay < 0) {
      throw new SandboxConfigError('callbackRetryDelaysMs must hold non-negative integers');
    }
  }
  const window = options.callbackReorderWindowMs;
  if (window !== undefined && (!Number.isInteger(window) || window < 0)) {
    throw new SandboxConfigError('callbackReorderWindowMs must be a non-negative integer');
  }
}

function validPersonality(patch: Partial<Personality> | undefined): Partial<Personality> {
  if (patch === undefined) return {};
  try {
    return parsePersonalityPatch(patch);
  } catch (error) {
    if (error instanceof SandboxError) throw new SandboxConfigError(`personality ${error.message}`);
    throw error;
  }
}

/** Options win, then what the database remembers, then fresh random credentials. */
function resolveMerchant(db: SandboxDb, options: SandboxProviderOptions): MerchantRow {
  const stored = readMerchant(db);
  const merchant: MerchantRow = {
    secretKey: options.secretKey ?? stored?.secretKey ?? newSecretKey(),
    accessToken: options.accessToken ?? stored?.accessToken ?? newAccessToken(),
    payoutAccountId: options.payoutAccountId ?? stored?.payoutAccountId ?? randomDigits(10),
    userId: stored?.userId ?? randomInt(100_000, 1_000_000),
    ownerName: stored?.ownerName ?? DEFAULT_OWNER_NAME,
  };
  saveMerchant(db, merchant);
  return merchant;
}

/**
 * Whether a request failed because its client went away while the body was read (a client
 * timeout): the normal end of such an exchange, not a sandbox error worth reporting.
 */
function clientGone(req: IncomingMessage, error: unknown): boolean {
  if (req.destroyed && !req.complete) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && (error.message === 'aborted' || code === 'ECONNRESET');
}

/**
 * Starts an HTTP server on 127.0.0.1 that behaves like the payment provider (see
 * provider-interface.md), with a control API for the customer's side. One port carries
 * /api (base_url), /payout (payout_base_url) and /control (control_url).
 */
export async function startSandboxProvider(
  options: SandboxProviderOptions = {},
): Promise<SandboxProvider> {
  validateOptions(options);
  const personalityPatch = validPersonality(options.personality);
  const now = options.now ?? Date.now;
  const onError = options.onError ?? ((error: unknown) => console.error('[sandbox]', error));
  const db = openSandboxDb(options.dbPath);

  let merchant: MerchantRow;
  try {
    merchant = resolveMerchant(db, options);
  } catch (error) {
    db.close();
    throw error;
  }
  let fallbackUrl = options.fallbackCallbackUrl ?? readSetting(db, FALLBACK_URL_KEY);
  const seed = options.seed ?? randomInt(0, 2 ** 31);
  const faults = new FaultInjector(db, seed);
  const served = new ServedFaults(db);
  const personality = new PersonalityStore(db);
  if (Object.keys(personalityPatch).length > 0) personality.apply(personalityPatch);
  const readings = (): Personality => personality.current;
  const dispatcher = new CallbackDispatcher({
    db,
    now,
    fetch: options.fetch ?? globalThis.fetch,
    faults,
    retryDelaysMs: options.callbackRetryDelaysMs ?? DEFAULT_CALLBACK_RETRY_DELAYS_MS,
    timeoutMs: options.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
    fallbackUrl: () => fallbackUrl,
    personality: readings,
    served,
    ...(options.callbackReorderWindowMs === undefined
      ? {}
      : { reorderWindowMs: options.callbackReorderWindowMs }),
  });
  const engine = new SandboxEngine({
    db,
    now,
    payoutAccountId: merchant.payoutAccountId,
    onPaymentSucceeded: (sessionId) => dispatcher.paymentSucceeded(sessionId),
    onPaymentFailed: (sessionId) => dispatcher.paymentFailed(sessionId),
    onError,
    personality: readings,
    served,
  });

  const providerDeps = {
    db,
    engine,
    merchant: () => merchant,
    countSkew: () => faults.current.count_skew,
    personality: readings,
  };
  const mounts: readonly Mount[] = [
    { prefix: '/api', routes: virtualAccountRoutes(providerDeps), provider: true },
    { prefix: '/payout', routes: payoutRoutes(providerDeps), provider: true },
    {
      prefix: '/control',
      provider: false,
      routes: controlRoutes({
        db,
        engine,
        dispatcher,
        faults,
        served,
        personality,
        now,
        getFallbackUrl: () => fallbackUrl,
        setFallbackUrl: (url) => {
          fallbackUrl = url;
          writeSetting(db, FALLBACK_URL_KEY, url);
        },
        startLine: () => {
          if (listening.startLine === null) throw new Error('the sandbox is not listening yet');
          return listening.startLine;
        },
      }),
    },
  ];

  /** Set once the server listens (the port is needed); no request can come before that. */
  const listening: { startLine: SandboxStartLine | null } = { startLine: null };
  let closing = false;
  const latencyWakers = new Set<() => void>();
  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        latencyWakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      latencyWakers.add(wake);
    });

  const errorReply = (error: unknown, provider: boolean): Reply => {
    if (error instanceof SandboxError) {
      return json(
        error.httpStatus,
        provider
          ? { status: 'error', message: error.message }
          : { status: 'error', code: error.code, message: error.message },
      );
    }
    onError(error);
    return json(500, { status: 'error', message: 'internal sandbox error' });
  };

  /**
   * One provider answer through the faults, in order: latency; error_rate (before the handler,
   * so nothing happens); the handler; side_effect_error_rate (after it: the work is committed,
   * then a 500); malformed_rate; timeout_rate (the finished answer is held, then sent). What
   * the answer serves is counted only when it goes out as built.
   */
  const runProvider = async (
    mount: Mount,
    req: IncomingMessage,
    url: URL,
    path: string,
  ): Promise<Reply | undefined> => {
    const fault = faults.current;
    if (fault.latency_ms > 0) {
      served.record('latency');
      await delay(fault.latency_ms);
    }
    if (closing) return undefined;
    const { route, params } = matchRoute(mount.routes, req.method ?? 'GET', path);
    if (faults.shouldFail()) {
      served.record('error');
      const status = faults.pick([500, 502, 503] as const);
      return json(status, { status: 'error', message: INJECTED_FAULT_MESSAGE });
    }
    const tally = new ServedTally();
    let reply: Reply;
    try {
      reply = await route.handle({ req, url, params, served: tally });
    } catch (error) {
      if (closing) return undefined; // an error of the shutdown itself, not of the request
      if (clientGone(req, error)) return undefined; // the client gave up (its timeout): normal
      reply = errorReply(error, true);
    }
    const ok = reply.status >= 200 && reply.status < 300;
    if (ok && faults.shouldSideEffectFail()) {
      tally.discard();
      served.record('side_effect_error');
      reply = json(500, { status: 'error', message: INJECTED_FAULT_MESSAGE });
    } else if (ok && faults.shouldMalform()) {
      tally.discard();
      served.record('malformed');
      reply = malformed(reply, faults);
    }
    if (faults.shouldTimeout()) {
      served.record('timeout');
      await delay(fault.timeout_hold_ms);
      if (closing) return undefined;
    }
    tally.commit(served);
    return reply;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', `http://${HOST}`);
    // Held (late) callbacks also go out on any request, so a fast-forwarded clock releases them.
    dispatcher.releaseDue();
    const mount = mounts.find(
      (m) => url.pathname === m.prefix || url.pathname.startsWith(`${m.prefix}/`),
    );
    let reply: Reply | undefined;
    try {
      if (mount === undefined)
        throw new SandboxError('ROUTE_NOT_FOUND', `no route for ${url.pathname}`);
      const path = url.pathname.slice(mount.prefix.length) || '/';
      if (mount.provider) {
        reply = await runProvider(mount, req, url, path);
      } else {
        const { route, params } = matchRoute(mount.routes, req.method ?? 'GET', path);
        const tally = new ServedTally();
        reply = await route.handle({ req, url, params, served: tally });
        tally.commit(served);
      }
    } catch (error) {
      reply =
        closing || clientGone(req, error) ? undefined : errorReply(error, mount?.provider ?? true);
    }
    if (reply === undefined || closing) {
      res.destroy();
      return;
    }
    writeReply(res, reply);
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      onError(error);
      res.destroy();
    });
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    db.close();
    throw error;
  }
  server.on('error', onError);

  engine.start();
  dispatcher.resumePending();

  const port = (server.address() as AddressInfo).port;
  const origin = `http://${HOST}:${port}`;
  let closed: Promise<void> | undefined;
  const addresses = {
    baseUrl: `${origin}/api`,
    payoutBaseUrl: `${origin}/payout`,
    controlUrl: `${origin}/control`,
    secretKey: merchant.secretKey,
    accessToken: merchant.accessToken,
    payoutAccountId: merchant.payoutAccountId,
  };
  listening.startLine = sandboxStartLine(addresses);

  return {
    ...addresses,
    port,
    seed,
    personality: readings,
    close() {
      closed ??= (async () => {
        closing = true;
        for (const wake of latencyWakers) wake();
        const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        engine.close();
        await dispatcher.close();
        await serverClosed;
        db.close();
      })();
      return closed;
    },
  };
}

/** A 2xx answer whose body a careful client must refuse: truncated, HTML, or without `data`. */
function malformed(reply: Reply, faults: FaultInjector): Reply {
  const text = 'json' in reply ? JSON.stringify(reply.json) : reply.raw;
  const kind = faults.pick(['truncated', 'html', 'no-data'] as const);
  switch (kind) {
    case 'truncated':
      return {
        status: reply.status,
        raw: text.slice(0, Math.max(1, Math.floor(text.length / 2))),
        contentType: 'application/json; charset=utf-8',
      };
    case 'html':
      return {
        status: reply.status,
        raw: '<html><body><h1>Service temporarily unavailable</h1></body></html>',
        contentType: 'text/html; charset=utf-8',
      };
    case 'no-data':
      return json(reply.status, { status: 'success' });
  }
}
