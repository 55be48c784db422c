import { randomBytes } from 'node:crypto';
import type {
  CallbackSelfTestCode,
  CallbackSelfTestTrigger,
  CallbackSelfTestView,
} from '#shared/views';
import { isLoopbackHostname } from '#shared/provider-url';
import type { CallbackRoute } from './callback-url';

/** The one field of a self-test body; a provider callback never carries it. */
export const SELF_TEST_FIELD = 'transfer_till_self_test';
export const DEFAULT_SELF_TEST_TIMEOUT_MS = 10_000;

const NONCE_SHAPE = /^[A-Za-z0-9_-]{22,64}$/;

export function selfTestBody(nonce: string): string {
  return JSON.stringify({ [SELF_TEST_FIELD]: nonce });
}

/** The nonce of a self-test body, or null for anything else (a provider callback). */
export function selfTestNonceOf(body: string): string | null {
  // Cheap refusal first: every provider callback goes through here.
  if (body.length > 200 || !body.includes(SELF_TEST_FIELD)) return null;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  const [entry] = entries;
  if (entries.length !== 1 || entry === undefined || entry[0] !== SELF_TEST_FIELD) return null;
  return typeof entry[1] === 'string' && NONCE_SHAPE.test(entry[1]) ? entry[1] : null;
}

/** What to do about each failure, in words for the shop owner. */
export const SELF_TEST_ACTIONS: Readonly<Record<CallbackSelfTestCode, string>> = {
  PASSED: 'Nothing to do.',
  NO_ROUTE:
    'Set up callbacks in Settings: an ngrok tunnel (recommended) or your own public address.',
  TIMEOUT:
    'Check the internet connection and that the tunnel or your forwarding is up, then press "Test callbacks" again.',
  REFUSED:
    "Check that your public address forwards to this till's listener port and that the till's listener is running.",
  NETWORK:
    'Check the internet connection and the public address (its name and https certificate), then test again.',
  ALLOW_LIST_REFUSED:
    "Expected when the allow list holds only the provider's addresses: callbacks from those can still come. To test from here, add this shop's own public address to the list.",
  BASIC_AUTH_REJECTED:
    'Enter the basic-auth password again in Settings (and the same user and password with the provider), or clear the basic-auth user.',
  WRONG_PATH:
    "Check that your public address forwards the whole path to this till's listener, and that the provider has the address shown in Settings.",
  TUNNEL_OFFLINE: 'Wait for the tunnel to reconnect, or restart it from Settings.',
  LISTENER_UNREACHABLE:
    "Check that the till's listener port in Settings is the one your tunnel or forwarding points at.",
  NOT_THIS_TILL:
    'Check that the public address points at this till: another server answered in its place.',
  UNEXPECTED_ANSWER: 'Check the tunnel or forwarding in front of the till, then test again.',
};

export interface CallbackSelfTesterOptions {
  /** The route as the provider would use it for a sale created now. */
  readonly route: () => CallbackRoute;
  /** The ngrok edge's basic-auth user and password, when the shop set both. */
  readonly basicAuth: () => { readonly username: string; readonly password: string } | null;
  readonly now: () => number;
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
  readonly onStarted?: () => void;
  readonly onFinished?: (result: CallbackSelfTestView) => void;
  /**
   * The port the till's listener is on now: a failure that a wrong port explains then names
   * both ports, rather than asking the owner to check a setting that may be right.
   */
  readonly listenerPort?: () => number;
}

export interface CallbackSelfTester {
  /**
   * The listener's hook: true when `body` is a self-test this till is waiting for (the listener
   * then answers 200 and neither stores it nor hands it on). Each nonce counts once.
   */
  receive(body: string): boolean;
  /** Posts a fresh nonce to the till's own public callback address; runs at most one at a time. */
  run(trigger: CallbackSelfTestTrigger): Promise<CallbackSelfTestView>;
  running(): boolean;
  /** Aborts a test in flight (on quit). */
  close(): void;
}

interface Outcome {
  readonly code: CallbackSelfTestCode;
  readonly detail: string;
}

/**
 * The end-to-end callback self-test: the till POSTs a one-time nonce to its own public callback
 * address, exactly as the provider would (through the tunnel, the shop's public URL or the local
 * sandbox route, with the ngrok basic-auth credentials when they are set), and the listener
 * reports whether it came back. Every failure gets its own words; the token in the address is a
 * credential, so only the address's origin ever appears in them.
 */
export function createCallbackSelfTester(options: CallbackSelfTesterOptions): CallbackSelfTester {
  const fetchImpl = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SELF_TEST_TIMEOUT_MS;
  /** Nonces posted and not yet seen; a seen one moves to `received`. */
  const pending = new Set<string>();
  const received = new Set<string>();
  const controllers = new Set<AbortController>();
  /** The test running now and the address it tests. */
  let inFlight: { readonly route: string; readonly result: Promise<CallbackSelfTestView> } | null =
    null;

  async function attempt(): Promise<Outcome> {
    const route = options.route();
    if (route.mode === 'polling-only') return { code: 'NO_ROUTE', detail: route.reason };
    const where = originOf(route.callbackUrl);
    const via = ROUTE_WORDS[route.mode];
    const nonce = randomBytes(24).toString('base64url');
    const credentials = route.mode === 'tunnel' ? options.basicAuth() : null;
    const controller = new AbortController();
    controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    timer.unref?.();
    pending.add(nonce);
    try {
      const response = await fetchImpl(route.callbackUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(credentials
            ? {
                authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`,
              }
            : {}),
        },
        body: selfTestBody(nonce),
        redirect: 'manual',
        signal: controller.signal,
      });
      await response.arrayBuffer().catch(() => undefined);
      return answerOutcome({
        status: response.status,
        ngrokError: response.headers.get('ngrok-error-code'),
        cameBack: received.has(nonce),
        where,
        via,
        sentCredentials: credentials !== null,
      });
    } catch (error) {
      return networkOutcome(error, where, timeoutMs, controller.signal.aborted);
    } finally {
      clearTimeout(timer);
      controllers.delete(controller);
      pending.delete(nonce);
      received.delete(nonce);
    }
  }

  async function runOnce(trigger: CallbackSelfTestTrigger): Promise<CallbackSelfTestView> {
    const started = options.now();
    options.onStarted?.();
    const outcome = await attempt();
    const at = options.now();
    const result: CallbackSelfTestView = {
      at,
      passed: outcome.code === 'PASSED',
      code: outcome.code,
      detail: outcome.detail,
      action:
        outcome.code === 'PASSED'
          ? null
          : (portAction(outcome.code, options.route(), options.listenerPort?.()) ??
            SELF_TEST_ACTIONS[outcome.code]),
      durationMs: Math.max(0, at - started),
      trigger,
    };
    options.onFinished?.(result);
    return result;
  }

  return {
    receive(body) {
      const nonce = selfTestNonceOf(body);
      if (nonce === null || !pending.delete(nonce)) return false;
      received.add(nonce);
      return true;
    },
    run(trigger) {
      const route = routeKeyOf(options.route());
      // Asked again for the same address: the answer on its way is the answer.
      if (inFlight?.route === route) return inFlight.result;
      // The address changed meanwhile: test the new one once the old test is over.
      const before = inFlight?.result.catch(() => undefined) ?? Promise.resolve();
      const result: Promise<CallbackSelfTestView> = before
        .then(() => runOnce(trigger))
        .finally(() => {
          if (inFlight?.result === result) inFlight = null;
        });
      inFlight = { route, result };
      return result;
    },
    running: () => inFlight !== null,
    close() {
      for (const controller of controllers) controller.abort();
    },
  };
}

/**
 * The advice for a refused or unreachable listener when the port is the cause: the callback
 * address points at another port of this computer than the listener's, or (through a tunnel
 * or the shop's forwarding) the till's real port is what the forwarding must point at.
 */
export function portAction(
  code: CallbackSelfTestCode,
  route: CallbackRoute,
  listenerPort: number | undefined,
): string | null {
  if (listenerPort === undefined || route.mode === 'polling-only') return null;
  if (code !== 'REFUSED' && code !== 'LISTENER_UNREACHABLE') return null;
  let url: URL;
  try {
    url = new URL(route.callbackUrl);
  } catch {
    return null;
  }
  const local = isLoopbackHostname(url.hostname);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (local && port !== listenerPort) {
    return `Your public address points at port ${port} of this computer, but the till's listener is on port ${listenerPort}: change the address to port ${listenerPort}, or set the listener port to ${port} in Settings.`;
  }
  if (local) {
    return `The till's listener is on port ${listenerPort} and running, but the test did not reach it: check that nothing else (a firewall, another program) stands in front of port ${listenerPort}.`;
  }
  return `The till's listener is running on port ${listenerPort} of this computer: point your tunnel or forwarding at 127.0.0.1:${listenerPort}.`;
}

function routeKeyOf(route: CallbackRoute): string {
  return route.mode === 'polling-only' ? `none: ${route.reason}` : route.callbackUrl;
}

const ROUTE_WORDS: Readonly<Record<Exclude<CallbackRoute['mode'], 'polling-only'>, string>> = {
  tunnel: 'the ngrok tunnel',
  'public-url': 'your public address',
  'local-sandbox': 'the local sandbox route',
};

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the callback address';
  }
}

/** ngrok's own error pages name themselves in this header (ERR_NGROK_3200: endpoint offline…). */
const NGROK_OFFLINE = 'ERR_NGROK_3200';
const NGROK_IP_RESTRICTED = 'ERR_NGROK_3205';
const NGROK_UPSTREAM_REFUSED = 'ERR_NGROK_8012';

function answerOutcome(input: {
  readonly status: number;
  readonly ngrokError: string | null;
  readonly cameBack: boolean;
  readonly where: string;
  readonly via: string;
  readonly sentCredentials: boolean;
}): Outcome {
  const { status, ngrokError, cameBack, where, via } = input;
  if (cameBack && status === 200) {
    return {
      code: 'PASSED',
      detail: `A test sent to ${where} came back to this till through ${via}.`,
    };
  }
  if (cameBack) {
    return {
      code: 'UNEXPECTED_ANSWER',
      detail: `The test reached this till, but ${where} answered ${status} instead of the till's 200: something in between changes the answers.`,
    };
  }
  if (ngrokError === NGROK_OFFLINE) {
    return {
      code: 'TUNNEL_OFFLINE',
      detail: `ngrok says the tunnel at ${where} is offline (${NGROK_OFFLINE}).`,
    };
  }
  if (ngrokError === NGROK_IP_RESTRICTED || status === 403) {
    return {
      code: 'ALLOW_LIST_REFUSED',
      detail: `${where} refused this till's own address (${status}${ngrokError ? `, ${ngrokError}` : ''}): the allow list keeps it out.`,
    };
  }
  if (status === 401) {
    return {
      code: 'BASIC_AUTH_REJECTED',
      detail: input.sentCredentials
        ? `${where} refused the basic-auth user and password this till has (401).`
        : `${where} asks for a basic-auth user and password, and this till has none (401).`,
    };
  }
  if (status === 404) {
    return {
      code: 'WRONG_PATH',
      detail: `${where} answered 404: it reaches a web server, but not this till's callback path.`,
    };
  }
  if (ngrokError === NGROK_UPSTREAM_REFUSED || status === 502 || status === 503 || status === 504) {
    return {
      code: 'LISTENER_UNREACHABLE',
      detail: `${where} answered ${status}: the tunnel or forwarding is up but cannot reach this till's listener.`,
    };
  }
  if (status >= 200 && status < 300) {
    return {
      code: 'NOT_THIS_TILL',
      detail: `${where} answered ${status}, but the test never reached this till.`,
    };
  }
  return {
    code: 'UNEXPECTED_ANSWER',
    detail: `${where} answered ${status}${ngrokError ? ` (${ngrokError})` : ''} and the test never reached this till.`,
  };
}

function networkOutcome(
  error: unknown,
  where: string,
  timeoutMs: number,
  aborted: boolean,
): Outcome {
  if (aborted) {
    return {
      code: 'TIMEOUT',
      detail: `No answer from ${where} within ${Math.round(timeoutMs / 1000)} s.`,
    };
  }
  const code = errorCode(error);
  if (code === 'ECONNREFUSED') {
    return {
      code: 'REFUSED',
      detail: `Nothing accepts connections at ${where} (connection refused).`,
    };
  }
  const words =
    code === 'ENOTFOUND' || code === 'EAI_AGAIN'
      ? 'its name cannot be found (DNS)'
      : code !== null && /CERT|TLS|SSL/i.test(code)
        ? 'its https certificate is not accepted'
        : `the connection failed${code ? ` (${code})` : ''}`;
  return { code: 'NETWORK', detail: `${where} cannot be reached: ${words}.` };
}

/** fetch wraps the socket error: the code sits on the error or on its cause. */
function errorCode(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
