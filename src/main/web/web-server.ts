import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ShellAccessView } from '#shared/bridge/contract';
import { accessRefusal } from '#main/auth/caller';
import type { Core } from '#main/core/create-core';
import { sameSecret } from '#main/security/constant-time';
import { createBridgeListener, type ListenerPolicy, type Principal } from './bridge-listener';
import { displayState, displayTokenFor, displayWants, watchDisplayState } from './customer-display';
import { loopbackHostAllowed, loopbackOriginAllowed } from '#main/security/host-rules';
import { readJson, sendError, sendJson } from './json-io';
import { memoryShellToken, type ShellTokenStore } from './shell-token';

/** --dev-clock's endpoints, by path. */
const DEV_ENDPOINTS: ReadonlyMap<string, 'advance-clock' | 'store-limit'> = new Map([
  ['/api/dev/advance-clock', 'advance-clock'],
  ['/api/dev/store-limit', 'store-limit'],
]);
const DEV_OWNER_ONLY =
  'Only the owner may move the till’s clock or fill its disk: unlock with the owner PIN first.';

/** The shell token's streams, and the customer display's. */
const BROWSER_TAG = 'browser';
const DISPLAY_TAG = 'display';

export interface WebShellOptions {
  readonly core: Core;
  /** The built renderer (out/renderer). */
  readonly rendererDir: string;
  readonly port?: number;
  /**
   * Where the token lives: `openShellTokenFile(dataDir)` keeps it across restarts. Without one,
   * `token` (or a fresh random one, 128 bits) is held in memory for this run.
   */
  readonly tokenStore?: ShellTokenStore;
  readonly token?: string;
  /** The owner rotated the token in Settings: the new addresses, for the shell to print. */
  readonly onTokenRotated?: (access: ShellAccessView) => void;
  /**
   * --dev-clock mode (end-to-end tests, training): POST /api/dev/advance-clock {"ms": n} moves
   * the till's clock forward, and POST /api/dev/store-limit {"limited": bool} simulates a full
   * disk. Absent in normal use, and then the endpoints do not exist. They follow the roles: with
   * an owner PIN set, only an owner session (x-till-session) may call them. PIN lock-outs count
   * on a clock they cannot move.
   */
  readonly devClock?: { advance(ms: number): void };
}

export interface WebShell {
  /** The address to open, token included (in the fragment, so it never reaches a log); a rotation changes it. */
  readonly url: string;
  /** The customer-facing display, for a second screen: its own token, which can call nothing. */
  readonly displayUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The browser shell: the same core and the same renderer bundle as the desktop app, with the
 * channel table carried over HTTP (POST /api/call/<channel>) and server-sent events
 * (GET /api/events), guarded by a random token. Binds to 127.0.0.1 only and refuses other Host
 * headers (DNS rebinding) and cross-origin calls. The shell token is the owner's (roles as set
 * in Settings); the customer display's token, derived from it, calls nothing and hears only
 * this till's sales.
 */
export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const tokens = options.tokenStore ?? memoryShellToken(options.token);
  const { core } = options;
  const logger = core.log.logger;
  let port = 0;
  let token = '';
  let displayToken = '';
  // Sessions are bound to this token: another token (a rotated one, a counter's) cannot use them.
  let boundTo = '';
  function useToken(next: string): void {
    token = next;
    displayToken = displayTokenFor(next);
    boundTo = `browser:${createHash('sha256').update(next).digest('hex').slice(0, 16)}`;
    // Never logged; should a careless line carry either, the logger scrubs it.
    core.log.redactor.addSecret(next);
    core.log.redactor.addSecret(displayToken);
  }
  useToken(tokens.current());

  function access(): ShellAccessView {
    return {
      url: `http://127.0.0.1:${port}/#token=${token}`,
      displayUrl: `http://127.0.0.1:${port}/#/display&display=${displayToken}`,
    };
  }

  /** A new token: pages holding the old one (and the display's derived one) are refused from now. */
  function rotateToken(): ShellAccessView {
    useToken(tokens.rotate());
    // Streams opened with the old tokens end; reconnecting with them is refused (401).
    listener.streams.end(() => true);
    const next = access();
    logger.info('browser shell token rotated');
    options.onTokenRotated?.(next);
    return next;
  }

  // The shell group is per shell: this shell's token rotation is its part of it.
  const handlers = core.handlersFor({ rotateToken: () => rotateToken() });

  const owner: Principal = {
    kind: 'caller',
    tag: BROWSER_TAG,
    sessionFor: (sessionId) => ({ sessionId, via: 'browser', boundTo }),
    handlers,
  };
  const display: Principal = {
    kind: 'display',
    tag: DISPLAY_TAG,
    wants: (event) => displayWants(event, core.settings.get().shop.tillId),
    greeting: async () => [{ type: 'display-state', payload: await displayState(core) }],
  };

  async function advanceClock(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = (await readJson(request).catch(() => ({}))) as { ms?: unknown };
    if (typeof body.ms !== 'number' || !Number.isFinite(body.ms) || body.ms < 0) {
      sendError(response, 400, 'INVALID_INPUT', 'ms must be a number ≥ 0');
      return;
    }
    options.devClock?.advance(body.ms);
    await core.idle();
    sendJson(response, 200, { ok: true, value: { advancedMs: body.ms } });
  }

  /** --dev-clock mode: {"limited": true} simulates a full disk on the real store; false ends it. */
  async function limitStore(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = (await readJson(request).catch(() => ({}))) as { limited?: unknown };
    if (typeof body.limited !== 'boolean') {
      sendError(response, 400, 'INVALID_INPUT', 'limited must be true or false');
      return;
    }
    sendJson(response, 200, { ok: true, value: core.limitStoreGrowth(body.limited) });
  }

  const policy: ListenerPolicy = {
    base: () => `http://127.0.0.1:${port}`,
    hostAllowed: (host) => loopbackHostAllowed(host, port),
    originAllowed: (origin) => loopbackOriginAllowed(origin, port),
    authenticate(given) {
      if (given !== null && sameSecret(given, token)) return owner;
      if (given !== null && sameSecret(given, displayToken)) return display;
      return { status: 401, code: 'UNAUTHORISED', message: 'Missing or wrong token.' };
    },
    async privateRoute(request, response, url, caller) {
      if (!options.devClock || request.method !== 'POST') return false;
      const endpoint = DEV_ENDPOINTS.get(url.pathname);
      if (endpoint === undefined) return false;
      if (accessRefusal('owner', caller) !== null) {
        sendError(response, 403, 'FORBIDDEN', DEV_OWNER_ONLY);
        return true;
      }
      await (endpoint === 'advance-clock' ? advanceClock : limitStore)(request, response);
      return true;
    },
  };
  const listener = createBridgeListener({
    core,
    rendererDir: options.rendererDir,
    policy,
    name: 'browser shell',
  });

  // The display shows the shop's name and this till's id: tell open displays when they change.
  const unsubscribeSettings = watchDisplayState(core, (payload) =>
    listener.streams.send({ type: 'display-state', payload }, (tag) => tag === DISPLAY_TAG),
  );

  const server = createServer((request, response) => listener.handle(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    get url() {
      return access().url;
    },
    get displayUrl() {
      return access().displayUrl;
    },
    port,
    async close() {
      unsubscribeSettings();
      listener.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
