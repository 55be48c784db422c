/**
 * One HTTP request to the sandbox: found among its mounts (/api, /payout, /control), a provider
 * request run through the injected faults (or its connection cut during an outage), an error turned into the answer each side expects,
 * and nothing sent once the sandbox is closing or the client has gone.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackDispatcher } from './callback-dispatcher';
import { SandboxError } from './errors';
import type { FaultInjector } from './faults';
import { headerValue, json, writeReply, type Reply } from './http-io';
import { matchRoute, type Route } from './router';
import { ServedTally, type ServedFaults } from './served-faults';
import { loopbackHostAllowed, loopbackOriginAllowed } from '#main/security/host-rules';

export const SANDBOX_HOST = '127.0.0.1';
const INJECTED_FAULT_MESSAGE = 'sandbox injected fault';

export interface Mount {
  readonly prefix: string;
  readonly routes: readonly Route[];
  /** Provider mounts take injected faults and answer `{status:'error', message}` only. */
  readonly provider: boolean;
}

export interface RequestDeps {
  readonly mounts: readonly Mount[];
  readonly faults: FaultInjector;
  readonly served: ServedFaults;
  readonly dispatcher: Pick<CallbackDispatcher, 'releaseDue'>;
  readonly onError: (error: unknown) => void;
  /** The sandbox is closing: no answer goes out any more. */
  readonly closing: () => boolean;
  /** A wait the close cuts short (latency and held answers). */
  readonly delay: (ms: number) => Promise<void>;
  /** The port the sandbox listens on: the only one its Host and Origin rules accept. */
  readonly port: () => number;
}

/**
 * The bridge's rules for a loopback listener: a Host other than 127.0.0.1 or localhost with our
 * port is a page on a rebound DNS name (421), and an Origin other than our own is a page of
 * another site (403), so no web page pays a training sale or reads the keys. The till, scripts
 * and curl send no Origin and reach us by 127.0.0.1:<port>.
 */
function refuseForeignCaller(req: IncomingMessage, port: number): void {
  const host = headerValue(req, 'host');
  if (!loopbackHostAllowed(host, port)) {
    throw new SandboxError('MISDIRECTED', `Host: ${host ?? '(none)'} is not this sandbox`);
  }
  const origin = headerValue(req, 'origin');
  if (origin && !loopbackOriginAllowed(origin, port)) {
    throw new SandboxError('CROSS_ORIGIN', 'Origin: a cross-origin request is refused');
  }
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

function errorReply(deps: RequestDeps, error: unknown, provider: boolean): Reply {
  if (error instanceof SandboxError) {
    return json(
      error.httpStatus,
      provider
        ? { status: 'error', message: error.message }
        : { status: 'error', code: error.code, message: error.message },
    );
  }
  deps.onError(error);
  return json(500, { status: 'error', message: 'internal sandbox error' });
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

/** The faults applied after the handler: side_effect_error_rate, then malformed_rate. */
function afterHandler(deps: RequestDeps, reply: Reply, tally: ServedTally): Reply {
  const { faults, served } = deps;
  const ok = reply.status >= 200 && reply.status < 300;
  if (ok && faults.shouldSideEffectFail()) {
    tally.discard();
    served.record('side_effect_error');
    return json(500, { status: 'error', message: INJECTED_FAULT_MESSAGE });
  }
  if (ok && faults.shouldMalform()) {
    tally.discard();
    served.record('malformed');
    return malformed(reply, faults);
  }
  return reply;
}

/**
 * One provider answer through the faults, in order: latency; error_rate (before the handler,
 * so nothing happens); the handler; side_effect_error_rate (after it: the work is committed,
 * then a 500); malformed_rate; timeout_rate (the finished answer is held, then sent). What
 * the answer serves is counted only when it goes out as built.
 */
async function runProvider(
  deps: RequestDeps,
  mount: Mount,
  req: IncomingMessage,
  url: URL,
  path: string,
): Promise<Reply | undefined> {
  const { faults, served } = deps;
  const fault = faults.current;
  if (fault.latency_ms > 0) {
    served.record('latency');
    await deps.delay(fault.latency_ms);
  }
  if (deps.closing()) return undefined;
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
    if (deps.closing()) return undefined; // an error of the shutdown itself, not of the request
    if (clientGone(req, error)) return undefined; // the client gave up (its timeout): normal
    reply = errorReply(deps, error, true);
  }
  reply = afterHandler(deps, reply, tally);
  if (faults.shouldTimeout()) {
    served.record('timeout');
    await deps.delay(fault.timeout_hold_ms);
    if (deps.closing()) return undefined;
  }
  tally.commit(served);
  return reply;
}

/** Answers one request (or destroys the socket when no answer is due). */
export async function handleSandboxRequest(
  deps: RequestDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${SANDBOX_HOST}`);
  const mount = deps.mounts.find(
    (m) => url.pathname === m.prefix || url.pathname.startsWith(`${m.prefix}/`),
  );
  let reply: Reply | undefined;
  try {
    refuseForeignCaller(req, deps.port());
    // Held (late) callbacks also go out on any request, so a fast-forwarded clock releases them.
    deps.dispatcher.releaseDue();
    if (mount === undefined)
      throw new SandboxError('ROUTE_NOT_FOUND', `no route for ${url.pathname}`);
    const path = url.pathname.slice(mount.prefix.length) || '/';
    if (mount.provider && deps.faults.unreachableNow()) {
      // The shop's internet is down: the connection breaks, nothing is answered or done.
      deps.served.record('unreachable');
      res.destroy();
      return;
    }
    if (mount.provider) {
      reply = await runProvider(deps, mount, req, url, path);
    } else {
      const { route, params } = matchRoute(mount.routes, req.method ?? 'GET', path);
      const tally = new ServedTally();
      reply = await route.handle({ req, url, params, served: tally });
      tally.commit(deps.served);
    }
  } catch (error) {
    reply =
      deps.closing() || clientGone(req, error)
        ? undefined
        : errorReply(deps, error, mount?.provider ?? true);
  }
  if (reply === undefined || deps.closing()) {
    res.destroy();
    return;
  }
  writeReply(res, reply);
}
