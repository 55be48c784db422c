/**
 * `npm run web`'s flags, read with node:util's parseArgs: --port, --data-dir, --dev-clock,
 * --sandbox-url and the shop hub's --lan, --lan-host, --lan-port (their reader: lan-flags.ts).
 * Any other flag or argument is refused by name, so that a typo never starts a shell that
 * silently ignored it.
 */
import { parseArgs } from 'node:util';
import { readLanFlags, type LanFlags } from './lan-flags';
import { resolveDataDir } from '#main/config/data-dir';
import { AppError } from '#shared/errors';

const WEB_FLAGS = {
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  'dev-clock': { type: 'boolean' },
  'sandbox-url': { type: 'string' },
  lan: { type: 'boolean' },
  'lan-host': { type: 'string' },
  'lan-port': { type: 'string' },
} as const;

export const WEB_FLAG_NAMES: readonly string[] = Object.keys(WEB_FLAGS).map((name) => `--${name}`);

export class WebFlagError extends AppError<'WEB_FLAG_INVALID'> {
  constructor(message: string) {
    super('WEB_FLAG_INVALID', message);
    this.name = 'WebFlagError';
  }
}

export interface WebFlags {
  /** --port (0: any free port); undefined when absent (the port used last, or the default). */
  readonly port: number | undefined;
  /** --data-dir, else TRANSFER_TILL_DATA_DIR, else the fallback; absolute. */
  readonly dataDir: string;
  /** --dev-clock: the till's clock can be moved forward through a token-guarded endpoint. */
  readonly devClock: boolean;
  /** --sandbox-url: a standalone `npm run sandbox`'s control_url, or undefined. */
  readonly sandboxUrl: string | undefined;
  readonly lan: LanFlags;
}

/**
 * Reads the flags in the order a problem is reported: --port, --data-dir, --dev-clock,
 * --sandbox-url, the hub's flags, then anything unknown.
 */
export function readWebFlags(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  fallbackDataDir: string,
): WebFlags {
  // Not strict: a flag with its value missing (or a flag where its value should be) gets that
  // flag's own words below rather than parseArgs' generic ones.
  const { values, tokens } = parseArgs({
    args: [...argv],
    options: WEB_FLAGS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const port = portOf(values.port);
  const dataDir = resolveDataDir(argv, env, fallbackDataDir);
  const devClock = values['dev-clock'];
  if (typeof devClock === 'string') {
    throw new WebFlagError(`--dev-clock takes no value, not ${JSON.stringify(devClock)}`);
  }
  const sandboxUrl = sandboxUrlOf(values['sandbox-url']);
  const lan = readLanFlags(argv);
  for (const token of tokens) {
    if (token.kind === 'option' && !Object.hasOwn(WEB_FLAGS, token.name)) {
      throw new WebFlagError(
        `unknown flag ${token.rawName}: npm run web takes ${WEB_FLAG_NAMES.join(', ')}`,
      );
    }
    if (token.kind === 'positional') {
      throw new WebFlagError(
        `unexpected argument ${JSON.stringify(token.value)}: npm run web takes only flags (${WEB_FLAG_NAMES.join(', ')})`,
      );
    }
  }
  return { port, dataDir, devClock: devClock === true, sandboxUrl, lan };
}

/** `--port N` or `--port=N`; undefined when absent. */
function portOf(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const raw = typeof value === 'string' ? value : undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new WebFlagError(`--port must be a number from 0 to 65535, not ${JSON.stringify(raw)}`);
  }
  return port;
}

/** `--sandbox-url U` or `--sandbox-url=U`; undefined when absent. */
function sandboxUrlOf(value: string | boolean | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '' || value.startsWith('--')) {
    throw new WebFlagError(
      '--sandbox-url needs the control_url of a running `npm run sandbox`, e.g. http://127.0.0.1:4010/control',
    );
  }
  return value;
}
