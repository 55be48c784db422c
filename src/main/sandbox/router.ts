import type { IncomingMessage } from 'node:http';
import { SandboxError } from './errors';
import type { Reply } from './http-io';
import type { ServedTally } from './served-faults';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly url: URL;
  /** Named groups of the route's pattern, URI-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** What this answer serves (a masked status, bad rows...), counted once it goes out as built. */
  readonly served: ServedTally;
}

export interface Route {
  readonly method: HttpMethod;
  /** Anchored pattern over the path after the mount point, with named groups for parameters. */
  readonly pattern: RegExp;
  readonly handle: (ctx: RequestContext) => Reply | Promise<Reply>;
}

export interface RouteMatch {
  readonly route: Route;
  readonly params: Readonly<Record<string, string>>;
}

/** Finds the route for a path; a known path with another method is a 405, not a 404. */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  let pathKnown = false;
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (match === null) continue;
    pathKnown = true;
    if (route.method !== method) continue;
    const params: Record<string, string> = {};
    for (const [key, value] of Object.entries(match.groups ?? {})) {
      params[key] = decodeURIComponent(value);
    }
    return { route, params };
  }
  if (pathKnown) throw new SandboxError('METHOD_NOT_ALLOWED', `method ${method} not allowed here`);
  throw new SandboxError('ROUTE_NOT_FOUND', `no route for ${path}`);
}
