/**
 * `npm run web -- [--port N] [--data-dir D] [--dev-clock]`: the browser shell. First line of
 * output: one JSON object with `url` (token included), `display_url` and, on the sandbox
 * provider, `control_url`; then human-readable lines. --dev-clock adds a token-guarded endpoint
 * that moves the till's clock forward (end-to-end tests and training only).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { resolveDataDir } from '../src/main/config/data-dir';
import { createCore } from '../src/main/core/create-core';
import { AdjustableScheduler } from '../src/main/engine/scheduler';
import { startWebShell } from '../src/main/web/web-server';
import { ensureRendererBundle } from './renderer-bundle';

function portArg(argv: readonly string[]): number {
  const index = argv.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
  if (index < 0) return 0;
  const raw = argv[index]?.includes('=') ? argv[index]?.split('=')[1] : argv[index + 1];
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a number from 0 to 65535, not ${JSON.stringify(raw)}`);
  }
  return port;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const port = portArg(argv);
  const dataDir = resolveDataDir(argv, process.env, join(homedir(), '.transfer-till', 'web'));
  const { version } = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  };
  const devClock = argv.includes('--dev-clock') ? new AdjustableScheduler() : undefined;
  const rendererDir = await ensureRendererBundle();
  const core = await createCore({
    dataDir,
    shell: 'browser',
    version,
    ...(devClock ? { scheduler: devClock } : {}),
  });
  const shell = await startWebShell({ core, rendererDir, port, ...(devClock ? { devClock } : {}) });
  const controlUrl = core.sandboxControlUrl();
  process.stdout.write(
    `${JSON.stringify({ url: shell.url, display_url: shell.displayUrl, ...(controlUrl ? { control_url: controlUrl } : {}) })}\n`,
  );
  process.stdout.write(`Transfer Till browser shell: open ${shell.url}\n`);
  process.stdout.write(`Customer display (second screen): ${shell.displayUrl}\n`);
  if (controlUrl) process.stdout.write(`Sandbox provider control API: ${controlUrl}\n`);
  process.stdout.write(`Data directory: ${dataDir}\nPress Ctrl+C to stop.\n`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void shell
      .close()
      .then(() => core.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `transfer-till web: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
