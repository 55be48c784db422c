import { randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { controlRoutes, type ControlApiDeps } from './control-api';
import { isHttpUrl } from './create-account-request';
import { SandboxError } from './errors';
import { FaultInjector } from './faults';
import { newAccessToken, newSecretKey, randomDigits } from './ids';
import { parsePersonalityPatch, PersonalityStore, type Personality } from './personality';
import { payoutRoutes, virtualAccountRoutes } from './provider-api';
import { openSandboxDb, type SandboxDb } from './sandbox-db';
import { buildSandboxParts, listenOn, wakeableDelays } from './sandbox-parts';
import { ServedFaults } from './served-faults';
import {
  handleSandboxRequest,
  SANDBOX_HOST,
  type Mount,
  type RequestDeps,
} from './sandbox-request';
import { sandboxStartLine, type SandboxStartLine } from './provider-answers';
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

const HOST = SANDBOX_HOST;
const FALLBACK_URL_KEY = 'fallback_callback_url';
const DEFAULT_OWNER_NAME = 'Sandbox Merchant';

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

/** /api and /payout answer as the provider does; /control is the customer's side. */
function sandboxMounts(control: ControlApiDeps, merchant: () => MerchantRow): readonly Mount[] {
  const providerDeps = {
    db: control.db,
    engine: control.engine,
    merchant,
    countSkew: () => control.faults.current.count_skew,
    personality: (): Personality => control.personality.current,
  };
  return [
    { prefix: '/api', routes: virtualAccountRoutes(providerDeps), provider: true },
    { prefix: '/payout', routes: payoutRoutes(providerDeps), provider: true },
    { prefix: '/control', provider: false, routes: controlRoutes(control) },
  ];
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
  const faults = new FaultInjector(db, seed, now);
  const served = new ServedFaults(db);
  const personality = new PersonalityStore(db);
  if (Object.keys(personalityPatch).length > 0) personality.apply(personalityPatch);
  const readings = (): Personality => personality.current;
  const { dispatcher, engine } = buildSandboxParts({
    db,
    options,
    merchant,
    now,
    onError,
    faults,
    served,
    personality: readings,
    fallbackUrl: () => fallbackUrl,
  });

  const mounts = sandboxMounts(
    {
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
    },
    () => merchant,
  );

  /** Set once the server listens (the port is needed); no request can come before that. */
  const listening: { startLine: SandboxStartLine | null } = { startLine: null };
  let closing = false;
  const { delay, wakeAll } = wakeableDelays();

  const requestDeps: RequestDeps = {
    mounts,
    faults,
    served,
    dispatcher,
    onError,
    closing: () => closing,
    delay,
    port: () => (server.address() as AddressInfo).port,
  };
  const handle = (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    handleSandboxRequest(requestDeps, req, res);

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      onError(error);
      res.destroy();
    });
  });

  try {
    await listenOn(server, options.port ?? 0, HOST);
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
        wakeAll();
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
