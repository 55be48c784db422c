import type * as NgrokModule from '@ngrok/ngrok';
import { isIP } from 'node:net';
import { scrubSecrets } from './scrub';
import {
  TunnelError,
  type TunnelConnectOptions,
  type TunnelDriver,
  type TunnelSession,
} from './types';

type NgrokSdk = typeof NgrokModule;
type NgrokSession = Awaited<ReturnType<InstanceType<NgrokSdk['SessionBuilder']>['connect']>>;

export interface NgrokDriverOptions {
  /**
   * Where the SDK dials ngrok (host:port). Only for tests and custom agent ingress: the tests
   * point it at a closed local port so nothing leaves the machine.
   */
  readonly serverAddr?: string;
  /** Bound on connecting and opening the endpoint together (default 15 s). */
  readonly connectTimeoutMs?: number;
  /** Loads the SDK; a test may replace it. Lazy so a missing native binary fails only here. */
  readonly loadSdk?: () => Promise<NgrokSdk>;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;

const MESSAGES = {
  BAD_AUTHTOKEN: 'The ngrok authtoken was refused — copy it again from your ngrok dashboard',
  NO_NETWORK: 'Cannot reach ngrok — check the internet connection',
  UNKNOWN: 'The ngrok tunnel could not start',
} as const;

/** ngrok error codes: 105/106/107 bad or revoked authtoken, 4018 no authtoken/account. */
const AUTHTOKEN_CODES = new Set([
  'ERR_NGROK_105',
  'ERR_NGROK_106',
  'ERR_NGROK_107',
  'ERR_NGROK_4018',
]);
/** 320 reserved by another account, 7117 not reserved, 7118 not reserved by this account. */
const DOMAIN_CODES = new Set(['ERR_NGROK_320', 'ERR_NGROK_7117', 'ERR_NGROK_7118']);
const NETWORK_TEXT =
  /tcp connection|dns|lookup|resolve|refused|unreachable|timed? ?out|network|handshake|reset by peer|broken pipe|eof/i;

/**
 * Turns whatever the SDK threw into a TunnelError with a code and a sentence for the shop owner.
 * The SDK's own text may quote the authtoken (ERR_NGROK_105 does), so it is scrubbed before it
 * is kept as `detail`.
 */
export function mapNgrokError(
  error: unknown,
  secrets: readonly (string | undefined)[],
  domain?: string,
): TunnelError {
  if (error instanceof TunnelError) return error;
  const raw = error instanceof Error ? error.message : String(error);
  const detail = scrubSecrets(raw, secrets);
  const property = (error as { errorCode?: unknown } | null)?.errorCode;
  const code = typeof property === 'string' ? property : /ERR_NGROK_\d+/.exec(raw)?.[0];
  if (
    (code !== undefined && AUTHTOKEN_CODES.has(code)) ||
    /authtoken|authentication failed/i.test(raw)
  ) {
    return new TunnelError('BAD_AUTHTOKEN', MESSAGES.BAD_AUTHTOKEN, detail);
  }
  if (
    (code !== undefined && DOMAIN_CODES.has(code)) ||
    (/domain|hostname/i.test(raw) && /reserved|not allowed|permission|denied/i.test(raw))
  ) {
    const which = domain ? ` ${domain}` : '';
    return new TunnelError(
      'DOMAIN_NOT_ALLOWED',
      `ngrok refused the domain${which} — check that it is reserved on this ngrok account`,
      detail,
    );
  }
  if (NETWORK_TEXT.test(raw)) return new TunnelError('NO_NETWORK', MESSAGES.NO_NETWORK, detail);
  const suffix = code === undefined ? '' : ` (${code})`;
  return new TunnelError('UNKNOWN', `${MESSAGES.UNKNOWN}${suffix}`, detail);
}

/** Settings checks that would otherwise come back as an obscure SDK error. */
export function validateTunnelOptions(options: TunnelConnectOptions): void {
  if (options.authtoken.trim() === '') {
    throw new TunnelError(
      'BAD_AUTHTOKEN',
      'No ngrok authtoken is set — paste it from your ngrok dashboard',
    );
  }
  if (!Number.isInteger(options.localPort) || options.localPort <= 0 || options.localPort > 65535) {
    throw new TunnelError('INVALID_SETTINGS', 'The webhook listener is not running');
  }
  if (
    options.domain !== undefined &&
    !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i.test(options.domain)
  ) {
    throw new TunnelError(
      'INVALID_SETTINGS',
      `"${options.domain}" is not a domain name (e.g. my-shop.ngrok.app)`,
    );
  }
  for (const cidr of options.allowCidrs ?? []) {
    const [address = '', prefix, extra] = cidr.split('/');
    const family = isIP(address);
    const bits = Number(prefix);
    if (
      family === 0 ||
      extra !== undefined ||
      !Number.isInteger(bits) ||
      bits < 0 ||
      bits > (family === 4 ? 32 : 128)
    ) {
      throw new TunnelError(
        'INVALID_SETTINGS',
        `"${cidr}" is not an address range (e.g. 41.58.0.0/16)`,
      );
    }
  }
  const auth = options.basicAuth;
  if (auth !== undefined) {
    if (auth.username === '' || auth.username.includes(':')) {
      throw new TunnelError(
        'INVALID_SETTINGS',
        'The basic-auth user name must be set and contain no colon',
      );
    }
    if (auth.password.length < 8 || auth.password.length > 128) {
      throw new TunnelError(
        'INVALID_SETTINGS',
        'The basic-auth password must have 8 to 128 characters',
      );
    }
  }
}

/**
 * Races `work` against a deadline. A result that arrives after the deadline is handed to
 * `discard` so a late session is closed rather than left running.
 */
function withDeadline<T>(
  work: Promise<T>,
  deadline: number,
  discard: (late: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(
      () => {
        expired = true;
        reject(
          new TunnelError(
            'NO_NETWORK',
            'ngrok did not answer in time — check the internet connection',
          ),
        );
      },
      Math.max(0, deadline - Date.now()),
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        if (expired) discard(value);
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!expired) reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The real tunnel on the official SDK (@ngrok/ngrok): one ngrok session with one HTTPS endpoint
 * forwarding to the listener on 127.0.0.1. The SessionBuilder API is used rather than
 * ngrok.forward() for the disconnection hook and for a session of our own per connect (forward()
 * shares sessions between calls).
 */
export function createNgrokDriver(driverOptions: NgrokDriverOptions = {}): TunnelDriver {
  const timeoutMs = driverOptions.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const loadSdk = driverOptions.loadSdk ?? (() => import('@ngrok/ngrok'));

  return {
    async connect(options) {
      validateTunnelOptions(options);
      const secrets = [options.authtoken, options.basicAuth?.password];
      const deadline = Date.now() + timeoutMs;
      let sdk: NgrokSdk;
      try {
        sdk = await loadSdk();
      } catch (error) {
        throw new TunnelError(
          'UNKNOWN',
          'The ngrok component is missing from this installation',
          scrubSecrets(String(error), secrets),
        );
      }
      const closedListeners: ((error?: TunnelError) => void)[] = [];
      let closing = false;
      let lost = false;
      const builder = new sdk.SessionBuilder()
        .authtoken(options.authtoken)
        .handleDisconnection((_addr, error) => {
          // Report the loss once; the manager closes this session and builds a fresh one.
          if (!closing && !lost) {
            lost = true;
            const mapped = mapNgrokError(new Error(error), secrets, options.domain);
            for (const notify of closedListeners) notify(mapped);
          }
          return !closing;
        });
      if (driverOptions.serverAddr !== undefined) builder.serverAddr(driverOptions.serverAddr);

      let session: NgrokSession;
      try {
        session = await withDeadline(
          builder.connect(),
          deadline,
          (late) => void late.close().catch(() => undefined),
        );
      } catch (error) {
        throw mapNgrokError(error, secrets, options.domain);
      }
      try {
        const endpoint = session.httpEndpoint();
        if (options.domain !== undefined) endpoint.domain(options.domain);
        for (const cidr of options.allowCidrs ?? []) endpoint.allowCidr(cidr);
        if (options.basicAuth !== undefined) {
          endpoint.basicAuth(options.basicAuth.username, options.basicAuth.password);
        }
        const listener = await withDeadline(
          endpoint.listenAndForward(`http://127.0.0.1:${options.localPort}`),
          deadline,
          (late) => void late.close().catch(() => undefined),
        );
        const url = listener.url();
        if (url === null)
          throw new TunnelError('UNKNOWN', 'ngrok opened the tunnel without a public URL');
        const tunnel: TunnelSession = {
          url,
          async close() {
            closing = true;
            await listener.close().catch(() => undefined);
            await session.close().catch(() => undefined);
          },
          onClosed(notify) {
            closedListeners.push(notify);
          },
        };
        return tunnel;
      } catch (error) {
        closing = true;
        await session.close().catch(() => undefined);
        throw mapNgrokError(error, secrets, options.domain);
      }
    },
  };
}
