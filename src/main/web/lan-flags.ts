/**
 * The browser shell's shop-hub flags: `--lan [--lan-host <address>] [--lan-port <n>]`. Read with
 * node:util's parseArgs, leaving every other flag to its own reader.
 */
import { parseArgs } from 'node:util';
import { ipFamily } from '#shared/settings-schema';
import { AppError } from '#shared/errors';

export interface LanFlags {
  /** --lan: the LAN listener is on for this run (the saved choice in Settings is unchanged). */
  readonly forceOn: boolean;
  /** --lan-host for this run; undefined: Settings' hub.lanHost (every address by default). */
  readonly host: string | undefined;
  /** --lan-port for this run (0: any free port); undefined: Settings' hub.lanPort. */
  readonly port: number | undefined;
}

export class LanFlagError extends AppError<'LAN_FLAG_INVALID'> {
  constructor(message: string) {
    super('LAN_FLAG_INVALID', message);
    this.name = 'LanFlagError';
  }
}

export function readLanFlags(argv: readonly string[]): LanFlags {
  let values: {
    lan?: boolean | string;
    'lan-host'?: boolean | string;
    'lan-port'?: boolean | string;
  };
  try {
    // Not strict: the shell's other flags (--port, --data-dir, ...) have their own readers.
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        lan: { type: 'boolean' },
        'lan-host': { type: 'string' },
        'lan-port': { type: 'string' },
      },
      strict: false,
      allowPositionals: true,
    }));
  } catch (error) {
    throw new LanFlagError(error instanceof Error ? error.message : String(error));
  }
  const host = values['lan-host'];
  if (host !== undefined && (typeof host !== 'string' || ipFamily(host) === 0)) {
    throw new LanFlagError(
      `--lan-host needs an IP address of this computer (e.g. 192.168.1.20, or 0.0.0.0 for all), not ${JSON.stringify(host)}`,
    );
  }
  const rawPort = values['lan-port'];
  let port: number | undefined;
  if (rawPort !== undefined) {
    port = typeof rawPort === 'string' && /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : NaN;
    if (!Number.isInteger(port) || port > 65535) {
      throw new LanFlagError(
        `--lan-port must be a number from 0 to 65535, not ${JSON.stringify(rawPort)}`,
      );
    }
  }
  return { forceOn: values.lan === true, host, port };
}
