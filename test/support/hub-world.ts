/**
 * A hub as the LAN tests need it, in one process: a real core (embedded sandbox over HTTP, real
 * SQLite file, real log file) in a fresh data directory, the browser shell on 127.0.0.1 (the
 * hub's own till and the owner's token) and the LAN listener on 127.0.0.1, any free port.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '#main/core/create-core';
import type { LanLimits } from '#main/hub/connection-caps';
import { startLanService, type LanService } from '#main/web/lan-service';
import { startWebShell, type WebShell } from '#main/web/web-server';

export interface HubWorld {
  readonly dataDir: string;
  readonly core: Core;
  readonly shell: WebShell;
  /** The browser shell's (owner's) token, from its url. */
  readonly shellToken: string;
  /** The LAN listener now running. */
  lan(): LanService;
  /** Starts the LAN listener again with these limits (the running one is closed first). */
  restartLan(limits?: Partial<LanLimits>): Promise<LanService>;
  close(): Promise<void>;
}

export async function startHubWorld(name: string): Promise<HubWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), `till-${name}-`));
  const rendererDir = join(dataDir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Transfer Till</title>');
  const core = await createCore({ dataDir, shell: 'browser', version: '1.2.3' });
  const shell = await startWebShell({ core, rendererDir });
  const start = (limits?: Partial<LanLimits>) =>
    startLanService({
      core,
      rendererDir,
      dataDir,
      host: '127.0.0.1',
      port: 0,
      forceOn: true,
      ...(limits ? { limits } : {}),
    });
  let lan = await start();
  return {
    dataDir,
    core,
    shell,
    shellToken: /#token=(.+)$/.exec(shell.url)?.[1] ?? '',
    lan: () => lan,
    async restartLan(limits) {
      await lan.close();
      lan = await start(limits);
      return lan;
    },
    async close() {
      await lan.close();
      await shell.close();
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
