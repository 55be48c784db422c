/**
 * Standalone sandbox provider. The first stdout line is one JSON object that scripts parse
 * (base_url, payout_base_url, secret_key, access_token, payout_account_id, control_url);
 * human-readable lines follow. Exit codes: 0 clean shutdown, 1 failure to start, 2 bad flags.
 * An entry point only: it starts on import, so nothing imports it (shared bits live in cli-args).
 */
import path from 'node:path';
import { SANDBOX_DB_FILE } from '#main/config/data-files';
import { ensurePrivateDir } from '#main/config/private-files';
import { CliUsageError, parseCliArgs, USAGE, type CliOptions } from './cli-args';
import type { Personality } from './personality';
import { SandboxConfigError, startSandboxProvider } from './sandbox-provider';
import { sandboxStartLine } from './provider-answers';

function fail(message: string, exitCode: number): never {
  process.stderr.write(`sandbox: ${message}\n`);
  process.exit(exitCode);
}

function describePersonality(personality: Personality): string {
  return Object.entries(personality)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(',');
}

function describeStartError(error: unknown, port: number): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `port ${port} on 127.0.0.1 is already in use`;
  if (code === 'EACCES') return `not allowed to listen on port ${port}`;
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof CliUsageError) fail(`${error.message}\n\n${USAGE}`, 2);
    throw error;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  let dbPath: string | undefined;
  if (options.dataDir !== undefined) {
    try {
      ensurePrivateDir(options.dataDir);
    } catch (error) {
      fail(`cannot create --data-dir ${options.dataDir}: ${describeStartError(error, 0)}`, 1);
    }
    dbPath = path.join(options.dataDir, SANDBOX_DB_FILE);
  }

  let sandbox;
  try {
    sandbox = await startSandboxProvider({
      port: options.port,
      dbPath,
      secretKey: options.secretKey,
      accessToken: options.accessToken,
      payoutAccountId: options.payoutAccountId,
      fallbackCallbackUrl: options.fallbackCallbackUrl,
      seed: options.seed,
      ...(options.personality === undefined ? {} : { personality: options.personality }),
    });
  } catch (error) {
    fail(describeStartError(error, options.port), error instanceof SandboxConfigError ? 2 : 1);
  }

  process.stdout.write(`${JSON.stringify(sandboxStartLine(sandbox))}\n`);
  process.stdout.write(
    [
      `Sandbox provider listening on 127.0.0.1:${sandbox.port}`,
      `  state: ${dbPath ?? 'in memory (lost on exit)'}`,
      `  fault seed: ${sandbox.seed}`,
      `  personality: ${describePersonality(sandbox.personality())}`,
      `  pay an account: curl -X POST ${sandbox.controlUrl}/transfers -H 'content-type: application/json' -d '{"account_number":"<n>","amount":1500}'`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`Received ${signal}, shutting down.\n`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => fail(`shutdown failed: ${String(error)}`, 1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error), 1));
