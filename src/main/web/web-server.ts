import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import {
  SESSION_HEADER,
  type BridgeEvent,
  type Handlers,
  type ShellAccessView,
} from '../../shared/bridge/contract';
import { rendererCspHeader } from '../../shared/csp';
import type { SessionRequest } from '../auth/sessions';
import { dispatch } from '../bridge/dispatch';
import type { Core } from '../core/create-core';
import type { StampedEvent } from '../core/event-bus';
import { sameSecret } from '../security/constant-time';
import { memoryShellToken, type ShellTokenStore } from './shell-token';

const MAX_BODY_BYTES = 256 * 1024;
/** A comment on every event stream this often, so that a page notices a dead link by its silence. */
export const SSE_PING_MS = 15_000;
const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Refusals by role answer 403, so that they show as refused in any HTTP log or tool. */
const REFUSED_CODES = new Set(['FORBIDDEN', 'SIGNED_OUT']);
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

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
   * the till's clock forward. Absent in normal use, and then the endpoint does not exist.
   */
  readonly devClock?: { advance(ms: number): void };
}

export interface WebShell {
  /** The address to open, token included (in the fragment, so it never reaches a log); a rotation changes it. */
  readonly url: string;
  /** The customer-facing display, for a second screen (its own tab keeps its own token). */
  readonly displayUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : {};
}

/**
 * The browser shell: the same core and the same renderer bundle as the desktop app, with the
 * channel table carried over HTTP (POST /api/call/<channel>) and server-sent events
 * (GET /api/events), guarded by a random token. Binds to 127.0.0.1 only and refuses other Host
 * headers (DNS rebinding) and cross-origin calls.
 */
export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const tokens = options.tokenStore ?? memoryShellToken(options.token);
  const { core } = options;
  const logger = core.log.logger;
  const root = normalize(options.rendererDir);
  /** Each event stream with the session it listens for: every event is checked against its role. */
  const sseClients = new Map<ServerResponse, SessionRequest>();
  let port = 0;
  let token = '';
  // Sessions are bound to this token: another token (a rotated one, a counter's) cannot use them.
  let boundTo = '';
  function useToken(next: string): void {
    token = next;
    boundTo = `browser:${createHash('sha256').update(next).digest('hex').slice(0, 16)}`;
    // Never logged; should a careless line carry it, the logger scrubs it.
    core.log.redactor.addSecret(next);
  }
  useToken(tokens.current());

  function sessionRequest(given: string | string[] | null | undefined): SessionRequest {
    const id = typeof given === 'string' && SESSION_ID.test(given) ? given : null;
    return { sessionId: id, via: 'browser', boundTo };
  }

  function visible(event: BridgeEvent, session: SessionRequest): boolean {
    return core.auth.eventVisibleTo(event, core.auth.viewerFor(session));
  }

  function frameOf(stamped: StampedEvent): string {
    return `id: ${stamped.id}\ndata: ${JSON.stringify(stamped.event)}\n\n`;
  }

  const unsubscribe = core.events.subscribe((event: BridgeEvent, stamped: StampedEvent) => {
    const frame = frameOf(stamped);
    for (const [client, session] of sseClients) {
      if (visible(event, session)) client.write(frame);
    }
  });
  const ping = setInterval(() => {
    for (const client of sseClients.keys()) client.write(': ping\n\n');
  }, SSE_PING_MS);
  ping.unref();

  function access(): ShellAccessView {
    return {
      url: `http://127.0.0.1:${port}/#token=${token}`,
      displayUrl: `http://127.0.0.1:${port}/#/display&token=${token}`,
    };
  }

  /** A new token: pages holding the old one are refused from the next request on. */
  function rotateToken(): ShellAccessView {
    useToken(tokens.rotate());
    // Streams opened with the old token end; reconnecting with it is refused (401).
    for (const client of sseClients.keys()) client.end();
    sseClients.clear();
    const next = access();
    logger.info('browser shell token rotated');
    options.onTokenRotated?.(next);
    return next;
  }

  const handlers: Handlers = { ...core.handlers, rotateShellToken: () => rotateToken() };

  /**
   * A new stream first gets what it missed after the Last-Event-ID it sent (as far as the
   * buffer reaches), then a `ready` frame: `resync: true` tells the page to re-read its state
   * (the shell restarted, or the gap is older than the buffer).
   */
  function openStream(request: IncomingMessage, response: ServerResponse, url: URL): void {
    const session = sessionRequest(url.searchParams.get('session'));
    const header = request.headers['last-event-id'];
    const lastEventId =
      (typeof header === 'string' ? header : null) ?? url.searchParams.get('lastEventId');
    const missed = lastEventId ? core.events.since(lastEventId) : [];
    const replay = (missed ?? []).filter((stamped) => visible(stamped.event, session));
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    const ready = { resync: missed === null, replayed: replay.length };
    // One write, so that the greeting arrives as one chunk.
    response.write(
      `: connected\n\n${replay.map(frameOf).join('')}event: ready\nid: ${core.events.lastId()}\ndata: ${JSON.stringify(ready)}\n\n`,
    );
    sseClients.set(response, session);
    request.on('close', () => sseClients.delete(response));
  }

  function authorised(request: IncomingMessage, url: URL): boolean {
    const header = request.headers.authorization;
    const given = header?.startsWith('Bearer ') ? header.slice(7) : url.searchParams.get('token');
    return given !== null && given !== undefined && sameSecret(given, token);
  }

  function hostAllowed(request: IncomingMessage): boolean {
    const host = request.headers.host;
    return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
  }

  function serveStatic(pathname: string, response: ServerResponse): void {
    const relative = pathname === '/' || pathname === '/display' ? '/index.html' : pathname;
    const file = normalize(join(root, decodeURIComponent(relative)));
    if (!file.startsWith(root + sep)) {
      response.writeHead(404).end();
      return;
    }
    let size: number;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) throw new Error('not a file');
      size = stat.size;
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': size,
      'content-security-policy': rendererCspHeader({ dev: false }),
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': extname(file) === '.html' ? 'no-store' : 'public, max-age=3600',
    });
    createReadStream(file).pipe(response);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!hostAllowed(request)) {
      response.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request');
      return;
    }
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    if (!url.pathname.startsWith('/api/')) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      serveStatic(url.pathname, response);
      return;
    }
    if (!authorised(request, url)) {
      sendJson(response, 401, {
        ok: false,
        error: { code: 'UNAUTHORISED', message: 'Missing or wrong token.' },
      });
      return;
    }
    const origin = request.headers.origin;
    if (origin && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
      sendJson(response, 403, {
        ok: false,
        error: { code: 'FORBIDDEN', message: 'Cross-origin call refused.' },
      });
      return;
    }
    if (url.pathname === '/api/events' && request.method === 'GET') {
      openStream(request, response, url);
      return;
    }
    if (
      options.devClock &&
      url.pathname === '/api/dev/advance-clock' &&
      request.method === 'POST'
    ) {
      const body = (await readJson(request).catch(() => ({}))) as { ms?: unknown };
      if (typeof body.ms !== 'number' || !Number.isFinite(body.ms) || body.ms < 0) {
        sendJson(response, 400, {
          ok: false,
          error: { code: 'INVALID_INPUT', message: 'ms must be a number ≥ 0' },
        });
        return;
      }
      options.devClock.advance(body.ms);
      await core.idle();
      sendJson(response, 200, { ok: true, value: { advancedMs: body.ms } });
      return;
    }
    const call = /^\/api\/call\/([A-Za-z]+)$/.exec(url.pathname);
    if (call && request.method === 'POST') {
      let input: unknown;
      try {
        input = await readJson(request);
      } catch {
        sendJson(response, 400, {
          ok: false,
          error: { code: 'INVALID_INPUT', message: 'The request body is not valid JSON.' },
        });
        return;
      }
      const channel = call[1] ?? '';
      const caller = core.auth.callerFor(sessionRequest(request.headers[SESSION_HEADER]), channel);
      const result = await dispatch(
        handlers,
        channel,
        input,
        (error) => logger.error({ err: error, channel }, 'bridge handler failed'),
        caller,
      );
      const refused = !result.ok && REFUSED_CODES.has(result.error.code);
      sendJson(response, refused ? 403 : 200, result, { [SESSION_HEADER]: caller.sessionId });
      return;
    }
    sendJson(response, 404, {
      ok: false,
      error: { code: 'NOT_FOUND', message: 'No such endpoint.' },
    });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      logger.error({ err: error }, 'web shell request failed');
      if (!response.headersSent)
        sendJson(response, 500, {
          ok: false,
          error: { code: 'INTERNAL', message: 'Internal error.' },
        });
      else response.destroy();
    });
  });
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
      clearInterval(ping);
      unsubscribe();
      for (const client of sseClients.keys()) client.end();
      sseClients.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
