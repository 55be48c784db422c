/**
 * The channel table over HTTP, shared by the shells' listeners: the renderer's static files,
 * POST /api/call/<channel>, GET /api/events (server-sent events with Last-Event-ID replay) and
 * the session header. Who may do what differs per listener (the loopback listener's shell and
 * display tokens, the LAN listener's counter tokens): each passes a ListenerPolicy, and this
 * module carries out what the policy decides without knowing any token.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  SESSION_HEADER,
  type BridgeEvent,
  type Caller,
  type Handlers,
} from '#shared/bridge/contract';
import type { SessionRequest } from '#main/auth/sessions';
import { dispatch } from '#main/bridge/dispatch';
import type { Core } from '#main/core/create-core';
import { createEventStreams, type EventStreams } from './event-streams';
import { readJsonOrRefuse, sendError, sendJson } from './json-io';
import { createStaticFiles } from './static-files';

/** Refusals by role answer 403, so that they show as refused in any HTTP log or tool. */
const REFUSED_CODES = new Set(['FORBIDDEN', 'SIGNED_OUT']);

/** Someone who calls channels in a session (the owner's shell, a paired counter). */
export interface CallerPrincipal {
  readonly kind: 'caller';
  /** Its streams' tag: streams are ended by tag (a rotated token, a revoked counter). */
  readonly tag: string;
  /** The session a call or stream acts in, from the id the page sent (if any). */
  sessionFor(sessionId: string | null): SessionRequest;
  readonly handlers: Handlers;
}

/** A customer display: it calls nothing, and its stream carries what its policy says. */
export interface DisplayPrincipal {
  readonly kind: 'display';
  readonly tag: string;
  wants(event: BridgeEvent): boolean;
  greeting(): Promise<readonly BridgeEvent[]>;
}

export type Principal = CallerPrincipal | DisplayPrincipal;

/** Why a request is refused before anything runs: answered as `{ ok: false, error }`. */
export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

export interface ListenerPolicy {
  /** The base for reading request paths, e.g. "http://127.0.0.1:5123". */
  base(): string;
  /** The DNS-rebinding guard: the Host headers this listener answers. */
  hostAllowed(host: string | undefined): boolean;
  /** Same-origin pages only (a request without Origin is not a browser page's: allowed). */
  originAllowed(origin: string, host: string): boolean;
  /** Who a token stands for, or why it is refused. */
  authenticate(token: string | null): Principal | Refusal;
  /** Routes answered before any token is asked for (POST /api/pair); true when answered. */
  openRoute?(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean>;
  /**
   * Routes answered for an authenticated caller (the dev clock), given who the request's session
   * is now (no session made, no owner unlock renewed); true when answered.
   */
  privateRoute?(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    caller: Caller,
  ): Promise<boolean>;
}

export interface BridgeListener {
  handle(request: IncomingMessage, response: ServerResponse): void;
  readonly streams: EventStreams;
  close(): void;
}

function isRefusal(value: Principal | Refusal): value is Refusal {
  return 'status' in value;
}

function isStreamRequest(request: IncomingMessage, url: URL): boolean {
  return url.pathname === '/api/events' && request.method === 'GET';
}

/**
 * The token of a request: the Authorization header. Only the event stream also takes `?token=`
 * (an EventSource cannot set a header); a call never does, so no call's credential sits in an
 * address that history, logs and Referer keep.
 */
function tokenOf(request: IncomingMessage, url: URL): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7);
  return isStreamRequest(request, url) ? url.searchParams.get('token') : null;
}

function sessionIdOf(given: string | string[] | null | undefined): string | null {
  return typeof given === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(given) ? given : null;
}

export function createBridgeListener(options: {
  readonly core: Core;
  readonly rendererDir: string;
  readonly policy: ListenerPolicy;
  /** For log lines: which listener failed. */
  readonly name: string;
}): BridgeListener {
  const { core, policy } = options;
  const logger = core.log.logger;
  const streams = createEventStreams(core.events, () => core.now());
  const serveStatic = createStaticFiles(options.rendererDir);

  function openStream(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    principal: Principal,
  ) {
    if (principal.kind === 'display') return streams.open(request, response, url, principal);
    const session = principal.sessionFor(sessionIdOf(url.searchParams.get('session')));
    return streams.open(request, response, url, {
      tag: principal.tag,
      wants: (event) => core.auth.eventVisibleTo(event, core.auth.viewerFor(session)),
    });
  }

  async function call(
    request: IncomingMessage,
    response: ServerResponse,
    channel: string,
    principal: Principal,
  ): Promise<void> {
    if (principal.kind === 'display') {
      sendError(
        response,
        403,
        'DISPLAY_ONLY',
        'The customer display shows sales; it cannot call the till.',
      );
      return;
    }
    const read = await readJsonOrRefuse(request, response);
    if (!read.ok) return;
    const input = read.body;
    const caller = core.auth.callerFor(
      principal.sessionFor(sessionIdOf(request.headers[SESSION_HEADER])),
      channel,
    );
    const result = await dispatch(
      principal.handlers,
      channel,
      input,
      (error) => logger.error({ err: error, channel }, 'bridge handler failed'),
      caller,
    );
    const refused = !result.ok && REFUSED_CODES.has(result.error.code);
    sendJson(response, refused ? 403 : 200, result, { [SESSION_HEADER]: caller.sessionId });
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const host = request.headers.host;
    if (!policy.hostAllowed(host)) {
      response.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request');
      return;
    }
    const url = new URL(request.url ?? '/', policy.base());
    if (!url.pathname.startsWith('/api/')) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      serveStatic(url.pathname, response);
      return;
    }
    const origin = request.headers.origin;
    if (origin && !policy.originAllowed(origin, host ?? '')) {
      sendError(response, 403, 'FORBIDDEN', 'Cross-origin call refused.');
      return;
    }
    if (policy.openRoute && (await policy.openRoute(request, response, url))) return;
    const principal = policy.authenticate(tokenOf(request, url));
    if (isRefusal(principal)) {
      sendError(response, principal.status, principal.code, principal.message);
      return;
    }
    if (isStreamRequest(request, url)) {
      await openStream(request, response, url, principal);
      return;
    }
    if (policy.privateRoute && principal.kind === 'caller') {
      const session = principal.sessionFor(sessionIdOf(request.headers[SESSION_HEADER]));
      const caller = core.auth.viewerFor(session);
      if (await policy.privateRoute(request, response, url, caller)) return;
    }
    const channel = /^\/api\/call\/([A-Za-z]+)$/.exec(url.pathname);
    if (channel && request.method === 'POST') {
      await call(request, response, channel[1] ?? '', principal);
      return;
    }
    sendError(response, 404, 'NOT_FOUND', 'No such endpoint.');
  }

  return {
    handle(request, response) {
      route(request, response).catch((error: unknown) => {
        logger.error({ err: error, listener: options.name }, 'web request failed');
        if (!response.headersSent) sendError(response, 500, 'INTERNAL', 'Internal error.');
        else response.destroy();
      });
    },
    streams,
    close: () => streams.close(),
  };
}
