import { parseArgs } from 'node:util';
import { SANDBOX_DB_FILE } from '#main/config/data-files';
import { isHttpUrl } from './create-account-request';
import { SandboxError } from './errors';
import { parsePersonalityFlag, PERSONALITY_KEYS, type Personality } from './personality';
import { AppError } from '#shared/errors';

export interface CliOptions {
  readonly port: number;
  readonly dataDir?: string;
  readonly secretKey?: string;
  readonly accessToken?: string;
  readonly payoutAccountId?: string;
  readonly fallbackCallbackUrl?: string;
  readonly seed?: number;
  readonly personality?: Partial<Personality>;
  readonly help: boolean;
}

export class CliUsageError extends AppError<'SANDBOX_CLI_USAGE'> {
  constructor(message: string) {
    super('SANDBOX_CLI_USAGE', message);
    this.name = 'CliUsageError';
  }
}

export const USAGE = `Usage: tsx src/main/sandbox/cli.ts --port <n> [options]

  --port <n>                    port on 127.0.0.1 (0 picks a free one; default 0)
  --data-dir <dir>              keep state in <dir>/${SANDBOX_DB_FILE} (default: in memory)
  --secret-key <key>            the merchant's secretKey (default: remembered or random)
  --access-token <token>        the payout Bearer token (default: remembered or random)
  --payout-account <10 digits>  the payout account id (default: remembered or random)
  --fallback-callback-url <url> where callbacks go when the primary URL is unreachable
  --seed <int>                  seed of the fault generator (reproducible fault runs)
  --personality <k=v,k=v>       provider readings where the interface is silent, e.g.
                                failed_status=404,callbacks=late (may be repeated; keys:
                                ${PERSONALITY_KEYS.join(', ')})
  --help                        show this help`;

function integer(flag: string, raw: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(raw)) throw new CliUsageError(`--${flag} must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw new CliUsageError(`--${flag} must be from ${min} to ${max}, got ${raw}`);
  }
  return value;
}

/** Every --personality flag in turn, a later one winning on a key given twice. */
function personalityOption(flags: readonly string[]): { personality?: Partial<Personality> } {
  if (flags.length === 0) return {};
  let personality: Partial<Personality> = {};
  for (const flag of flags) {
    try {
      personality = { ...personality, ...parsePersonalityFlag(flag) };
    } catch (error) {
      if (error instanceof SandboxError) throw new CliUsageError(`--personality ${error.message}`);
      throw error;
    }
  }
  return { personality };
}

export function parseCliArgs(argv: readonly string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'secret-key': { type: 'string' },
        'access-token': { type: 'string' },
        'payout-account': { type: 'string' },
        'fallback-callback-url': { type: 'string' },
        seed: { type: 'string' },
        personality: { type: 'string', multiple: true },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  const payout = values['payout-account'];
  if (payout !== undefined && !/^\d{10}$/.test(payout)) {
    throw new CliUsageError(`--payout-account must be 10 digits, got "${payout}"`);
  }
  const fallback = values['fallback-callback-url'];
  if (fallback !== undefined && !isHttpUrl(fallback)) {
    throw new CliUsageError('--fallback-callback-url must be an absolute http(s) URL');
  }
  for (const flag of ['secret-key', 'access-token', 'data-dir'] as const) {
    if (values[flag]?.trim() === '') throw new CliUsageError(`--${flag} must not be empty`);
  }
  return {
    ...personalityOption(values.personality ?? []),
    port: values.port === undefined ? 0 : integer('port', values.port, 0, 65535),
    dataDir: values['data-dir'],
    secretKey: values['secret-key'],
    accessToken: values['access-token'],
    payoutAccountId: payout,
    fallbackCallbackUrl: fallback,
    seed: values.seed === undefined ? undefined : integer('seed', values.seed, 0, 2 ** 32 - 1),
    help: values.help ?? false,
  };
}
