/**
 * `npm run web -- [--port N] [--data-dir D] [--dev-clock] [--sandbox-url U]
 *   [--lan [--lan-host A] [--lan-port P]]`: the browser shell.
 * First line of output (the first line this program prints: `npm run --silent web` shows nothing
 * before it): one JSON object with `url` (token included), `display_url` and, on the sandbox
 * provider, `control_url`; then human-readable lines. Without --port the shell listens on the
 * port it used last (`web-port` in the data directory), on the very first start on 7420
 * (shell-port.ts), so the url lasts; a port held by another program is a one-line error. --dev-clock adds a token-guarded
 * endpoint that moves the till's clock forward (end-to-end tests and training only; it cannot
 * move a standalone sandbox's clock). --sandbox-url saves a standalone `npm run sandbox`'s
 * control URL in the SANDBOX profile, after checking that it answers, so that several tills
 * train against one provider. The token is kept in the data directory (`web-token`, mode 0600),
 * so the same url works after a restart; when the owner rotates it in Settings, one more JSON
 * line gives the new `url` and `display_url` (with `"token_rotated": true`).
 * The shop hub's LAN listener (HTTPS, for paired counters) follows Settings (hub.lanEnabled, off
 * by default); --lan turns it on for this run and adds `lan_url` and one `pairing_url` (a counter
 * named "Counter 1", valid 10 minutes, once) to the first line. --lan-host is where it listens
 * for this run instead of Settings' hub.lanHost (tests pass 127.0.0.1), --lan-port instead of
 * Settings' hub.lanPort.
 * The flags are read by web/web-flags.ts; any other flag is refused by name.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ensureDataDir } from '#main/config/data-dir';
import { readWebFlags } from '#main/web/web-flags';
import { createCore, type Core } from '#main/core/create-core';
import { readStandaloneSandbox, type SandboxConnection } from '#main/core/standalone-sandbox';
import { openNodeSettings } from '#main/settings/node-settings';
import type { OpenedSettings } from '#main/settings/recovery';
import { createSettingsStore, type SettingsBackend } from '#main/settings/settings-store';
import { AdjustableScheduler } from '#main/clock/scheduler';
import { startLanService, type LanService } from '#main/web/lan-service';
import { openShellTokenFile } from '#main/web/shell-token';
import { writeStartLine, type StartLine } from '#main/web/start-line-file';
import { startWebShell, type WebShell } from '#main/web/web-server';
import {
  chooseShellPort,
  saveShellPort,
  ShellPortTakenError,
  type ShellPortChoice,
} from '#main/web/shell-port';
import { ensureRendererBundle } from './renderer-bundle';

/**
 * Saves the standalone sandbox in the SANDBOX profile (the same field as in Settings), and
 * hands the opened settings on so that the core starts with it.
 */
function useStandaloneSandbox(
  dataDir: string,
  version: string,
  sandbox: SandboxConnection,
): OpenedSettings<SettingsBackend> {
  ensureDataDir(dataDir);
  const opened = openNodeSettings(dataDir, version);
  let recovery = opened.recovery;
  const store = createSettingsStore(opened.backend, {
    recovered: opened.recovery,
    onRecovered: (found) => {
      recovery = found;
    },
  });
  store.update({ profiles: { sandbox: { sandboxUrl: sandbox.controlUrl } } });
  // A bad settings file found here is still reported by the core's alert.
  return { backend: opened.backend, recovery };
}

/**
 * --lan's part of the start line (`lan_url`, one `pairing_url`) and how to pair, in words; when
 * the listener could not start, why (`lan_problem`) instead.
 */
function hubStart(
  core: Core,
  lan: LanService,
): { readonly json: Readonly<Record<string, string>>; readonly human: readonly string[] } {
  const view = lan.view();
  if (!view.running || view.url === null || view.fingerprint === null) {
    const problem = view.problem ?? 'the LAN listener did not start';
    return {
      json: { lan_problem: problem },
      human: [`Shop hub: the LAN listener is not running: ${problem}`],
    };
  }
  const link = core.hub.createPairingLink('Counter 1');
  return {
    json: { lan_url: view.url, pairing_url: link.url },
    human: [
      `Shop hub: counters on the shop's network reach this till at ${view.url}`,
      `To pair a counter, open this link on it within 10 minutes (it works once): ${link.url}`,
      `Its browser warns about the certificate once: accept it only if the fingerprint it shows is ${view.fingerprint}`,
      'More pairing links: Counters screen (owner), "Add counter".',
    ],
  };
}

/** The start line in the data directory; a till that cannot write it still runs (and says so). */
function keepStartLine(dataDir: string, line: StartLine): void {
  try {
    writeStartLine(dataDir, line);
  } catch (error) {
    process.stderr.write(
      `transfer-till web: could not save the start line in ${dataDir} (npm run pay will not find this till): ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
}

/**
 * Starts the shell on the chosen port; when another program holds it, closes the core (its
 * database, its embedded sandbox) and says so in one line, naming the port and --port.
 */
async function listenOrClose(
  core: Core,
  chosen: ShellPortChoice,
  start: (port: number) => Promise<WebShell>,
): Promise<WebShell> {
  try {
    return await start(chosen.port);
  } catch (error) {
    await core.close();
    const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    throw taken ? new ShellPortTakenError(chosen.port, chosen.source) : error;
  }
}

async function main(): Promise<void> {
  const flags = readWebFlags(
    process.argv.slice(2),
    process.env,
    join(homedir(), '.transfer-till', 'web'),
  );
  const { dataDir, sandboxUrl, lan: lanFlags } = flags;
  const chosen = chooseShellPort(flags.port, dataDir);
  const { version } = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  };
  const devClock = flags.devClock ? new AdjustableScheduler() : undefined;
  // Checked before anything starts: a wrong address is an error, never a silent embedded sandbox.
  const standalone = sandboxUrl === undefined ? null : await readStandaloneSandbox(sandboxUrl);
  const settings = standalone ? useStandaloneSandbox(dataDir, version, standalone) : undefined;
  const rendererDir = await ensureRendererBundle();
  const core = await createCore({
    dataDir,
    shell: 'browser',
    version,
    ...(devClock ? { scheduler: devClock } : {}),
    ...(settings ? { settings } : {}),
  });
  const tokenStore = openShellTokenFile(dataDir);
  let startLine: StartLine | null = null;
  if (tokenStore.replacedAtStart) {
    process.stderr.write(
      `transfer-till web: a new access token was made (${tokenStore.replacedAtStart}); open the new url.\n`,
    );
  }
  const shell = await listenOrClose(core, chosen, (listenPort) =>
    startWebShell({
      core,
      rendererDir,
      port: listenPort,
      tokenStore,
      onTokenRotated: (access) => {
        if (startLine) {
          startLine = { ...startLine, url: access.url, display_url: access.displayUrl };
          keepStartLine(dataDir, startLine);
        }
        process.stdout.write(
          `${JSON.stringify({ url: access.url, display_url: access.displayUrl, token_rotated: true })}\n`,
        );
        process.stdout.write(
          `The access token was rotated: pages opened before are refused. Open ${access.url}\n`,
        );
      },
      ...(devClock ? { devClock } : {}),
    }),
  );
  saveShellPort(dataDir, shell.port);
  const lan: LanService = await startLanService({
    core,
    rendererDir,
    dataDir,
    ...(lanFlags.host === undefined ? {} : { host: lanFlags.host }),
    ...(lanFlags.port === undefined ? {} : { port: lanFlags.port }),
    forceOn: lanFlags.forceOn,
  });
  const hubLines = lanFlags.forceOn ? hubStart(core, lan) : null;
  const controlUrl = core.sandboxControlUrl();
  startLine = {
    url: shell.url,
    display_url: shell.displayUrl,
    ...(controlUrl ? { control_url: controlUrl } : {}),
    ...hubLines?.json,
  };
  // Also in the data directory, for `npm run pay` and `npm run web-info` in a second terminal.
  keepStartLine(dataDir, startLine);
  process.stdout.write(`${JSON.stringify(startLine)}\n`);
  process.stdout.write(`Transfer Till browser shell: open ${shell.url}\n`);
  process.stdout.write(`Customer display (second screen): ${shell.displayUrl}\n`);
  if (controlUrl) {
    process.stdout.write(
      `${standalone ? 'Shared sandbox provider' : 'Sandbox provider'} control API: ${controlUrl}\n`,
    );
  } else if (standalone) {
    process.stdout.write(
      `The shared sandbox ${standalone.controlUrl} is saved in the SANDBOX profile: it is used once Settings switch this till to SANDBOX.\n`,
    );
  }
  for (const line of hubLines?.human ?? []) process.stdout.write(`${line}\n`);
  process.stdout.write(`Data directory: ${dataDir}\nPress Ctrl+C to stop.\n`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void lan
      .close()
      .then(() => shell.close())
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
