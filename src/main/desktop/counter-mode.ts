/**
 * Whether the desktop app starts as a counter of a hub, and of which one. A counter builds no
 * core: no keys, no tunnel, no database on this PC; it shows the hub's own page over the LAN.
 * It is chosen by `--counter "<pairing link>"` or by the file a first pairing left behind.
 */
import { z } from 'zod';
import {
  fingerprintHex,
  hubOriginOf,
  parsePairingLink,
  PairingLinkError,
  type PairingLinkErrorCode,
} from './pairing-link';
import { AppError, type AppErrorCode } from '#shared/errors';

/** In the app's userData folder: {hubOrigin, fingerprint}. Holds no secret (the token stays in the page's storage). */
export const COUNTER_MODE_FILE = 'counter-mode.json';
export const COUNTER_FLAG = '--counter';

export interface CounterMode {
  readonly hubOrigin: string;
  /** The pinned certificate's SHA-256, 64 lower-case hex digits. */
  readonly fingerprint: string;
  /** The counter window's first page: the pairing link, or the hub's address once paired. */
  readonly startUrl: string;
  /** Whether this run pairs with a link (and saves the choice once the hub says yes). */
  readonly pairing: boolean;
}

export type CounterModeErrorCode = Extract<
  AppErrorCode,
  PairingLinkErrorCode | 'COUNTER_FLAG_WITHOUT_LINK' | 'COUNTER_MODE_FILE_DAMAGED'
>;

export class CounterModeError extends AppError<CounterModeErrorCode> {
  constructor(code: CounterModeErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options?.cause === undefined ? {} : { cause: options.cause });
    this.name = 'CounterModeError';
  }
}

const savedSchema = z.object({ hubOrigin: z.string(), fingerprint: z.string() });

/** The link after `--counter` (or in `--counter=<link>`); undefined without the flag. */
function counterFlagValue(argv: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === COUNTER_FLAG) {
      const next = argv[i + 1];
      value = next !== undefined && !next.startsWith('--') ? next : '';
    } else if (arg?.startsWith(`${COUNTER_FLAG}=`)) {
      value = arg.slice(COUNTER_FLAG.length + 1);
    }
  }
  return value;
}

function fromLink(link: string): CounterMode {
  try {
    const parsed = parsePairingLink(link);
    return {
      hubOrigin: parsed.hubOrigin,
      fingerprint: parsed.fingerprint,
      startUrl: parsed.href,
      pairing: true,
    };
  } catch (error) {
    if (error instanceof PairingLinkError) {
      throw new CounterModeError(error.code, error.message, { cause: error });
    }
    throw error;
  }
}

function fromSaved(text: string): CounterMode {
  const damaged = (cause?: unknown): never => {
    throw new CounterModeError(
      'COUNTER_MODE_FILE_DAMAGED',
      `The saved counter setting (${COUNTER_MODE_FILE}) cannot be read. Start the counter again with a new pairing link, or leave counter mode.`,
      cause === undefined ? undefined : { cause },
    );
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return damaged(error);
  }
  const parsed = savedSchema.safeParse(json);
  if (!parsed.success) return damaged(parsed.error);
  const fingerprint = fingerprintHex(parsed.data.fingerprint);
  if (!fingerprint) return damaged();
  let hubOrigin: string;
  try {
    const url = new URL(parsed.data.hubOrigin);
    hubOrigin = hubOriginOf(url);
    // The file holds an origin and nothing else: a path or fragment means it was edited.
    if (url.href !== `${hubOrigin}/`) return damaged();
  } catch (error) {
    return damaged(error);
  }
  return { hubOrigin, fingerprint, startUrl: `${hubOrigin}/`, pairing: false };
}

/**
 * Counter mode for this run, or null for a normal till. A link on the command line wins over the
 * saved file: it is how a counter moves to another hub, or pairs again after the hub's
 * certificate changed. Throws CounterModeError for a bad link or a damaged file, never silently
 * starting a till (with its own database) on a PC meant to be a counter.
 */
export function counterModeFrom(argv: readonly string[], saved: string | null): CounterMode | null {
  const link = counterFlagValue(argv);
  if (link !== undefined) {
    if (link.trim() === '') {
      throw new CounterModeError(
        'COUNTER_FLAG_WITHOUT_LINK',
        `${COUNTER_FLAG} needs the pairing link, in quotes: ${COUNTER_FLAG} "https://…/#/pair&code=…&fp=…"`,
      );
    }
    return fromLink(link);
  }
  return saved === null ? null : fromSaved(saved);
}

/** What counter-mode.json holds: where the hub is and which certificate it must show. */
export function counterModeFileText(mode: Pick<CounterMode, 'hubOrigin' | 'fingerprint'>): string {
  return `${JSON.stringify({ hubOrigin: mode.hubOrigin, fingerprint: mode.fingerprint }, null, 2)}\n`;
}

/** The command line for a restart as a normal till: the same, without `--counter <link>`. */
export function argvWithoutCounter(argv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === COUNTER_FLAG) {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) i++;
      continue;
    }
    if (arg.startsWith(`${COUNTER_FLAG}=`)) continue;
    kept.push(arg);
  }
  return kept;
}

/** What the window's session saw of a finished request. */
export interface CompletedRequest {
  readonly url: string;
  readonly method: string;
  readonly statusCode: number;
}

/**
 * The hub accepted this counter: its page's POST /api/pair was answered 200. Only then is the
 * choice saved, so a used or expired link leaves the PC as it was.
 */
export function pairingCompleted(request: CompletedRequest, hubOrigin: string): boolean {
  if (request.method !== 'POST' || request.statusCode !== 200) return false;
  try {
    const url = new URL(request.url);
    return url.origin === hubOrigin && url.pathname === '/api/pair';
  } catch {
    return false;
  }
}
