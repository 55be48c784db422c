/**
 * The till's files are its user's alone: after a start (browser shell, embedded sandbox, a sale,
 * the daily backup) every folder in the data folder is 0700 and every file 0600, whatever the
 * umask, on a fresh folder and on one an older version left 0755 with 0644 files (and a WAL a
 * crash left behind). The backup holds no callback path token.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableScheduler } from '#main/clock/scheduler';
import { tillDbPath } from '#main/config/data-files';
import { createCore } from '#main/core/create-core';
import { startLanService } from '#main/web/lan-service';
import { saveShellPort } from '#main/web/shell-port';
import { openShellTokenFile } from '#main/web/shell-token';
import { writeStartLine } from '#main/web/start-line-file';
import { startWebShell } from '#main/web/web-server';
import { loosenModes, modesUnder } from '#support/file-modes';
import { callTill } from '#support/web-till';

const posix = process.platform !== 'win32';
/** --lan on this machine only: the hub's certificate file is written too. */
const LAN_ON_LOOPBACK = { host: '127.0.0.1', port: 0, forceOn: true } as const;
let umask = 0;
let parent = '';
let rendererDir = '';

beforeAll(() => {
  // The usual umask: files nobody set a mode for come out 0644.
  umask = process.umask(0o022);
  parent = mkdtempSync(join(tmpdir(), 'till-private-'));
  rendererDir = join(parent, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Transfer Till</title>');
});

afterAll(() => {
  process.umask(umask);
});

/** The daily backup in `dir`, once written (a minute after start, off the call path). */
async function backupIn(dir: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const found = existsSync(dir)
      ? readdirSync(dir).find((name) => /^till-.*\.sqlite$/.test(name))
      : undefined;
    if (found) return join(dir, found);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no backup in ${dir}`);
}

/**
 * Starts the till as `npm run web -- --dev-clock --lan` does, takes a sale, lets the daily
 * backup run, and hands back the data folder's modes (while running) and the callback token.
 */
async function startAndSell(
  dataDir: string,
): Promise<{ modes: string[]; token: string; backup: string }> {
  const clock = new AdjustableScheduler();
  const core = await createCore({
    dataDir,
    shell: 'browser',
    version: '0.0.0-test',
    scheduler: clock,
  });
  const shell = await startWebShell({
    core,
    rendererDir,
    devClock: clock,
    tokenStore: openShellTokenFile(dataDir),
  });
  const lan = await startLanService({ core, rendererDir, dataDir, ...LAN_ON_LOOPBACK });
  try {
    saveShellPort(dataDir, shell.port);
    writeStartLine(dataDir, { url: shell.url, display_url: shell.displayUrl });
    const settings = await callTill(shell.url, 'getSettings', {});
    const callbackUrl = settings.ok ? (settings.value as { callbackUrl: string }).callbackUrl : '';
    const token = callbackUrl.split('/').at(-1) ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await callTill(shell.url, 'createSale', { amount: '1,500' })).toMatchObject({
      ok: true,
    });
    clock.advance(61_000);
    const backup = await backupIn(join(dataDir, 'backups', 'sandbox'));
    await core.idle();
    return { modes: modesUnder(dataDir), token, backup };
  } finally {
    await lan.close();
    await shell.close();
    await core.close();
  }
}

function loose(modes: readonly string[]): string[] {
  return modes.filter((line) => !/^(0700 .*\/|0600 .*[^/])$/.test(line));
}

describe.runIf(posix)('private files', () => {
  const dataDir = () => join(parent, 'data');

  it('on a fresh data folder: the folder 0700, every file the till and its sandbox write 0600', async () => {
    const { modes, token, backup } = await startAndSell(dataDir());
    expect(modesUnder(parent).find((line) => line.endsWith(' data/'))).toBe('0700 data/');
    for (const name of [
      'till-sandbox.sqlite',
      'till-sandbox.sqlite-wal',
      'till-sandbox.sqlite-shm',
      'sandbox-provider.sqlite',
      'sandbox-provider.sqlite-wal',
      'sandbox-provider.sqlite-shm',
      'backups/sandbox/',
      'logs/main.log',
      'settings.json',
      'web-token',
      'web-port',
      'web-shell.json',
      'hub-tls.json',
    ]) {
      expect(
        modes.some((line) => line.endsWith(` ${name}`)),
        name,
      ).toBe(true);
    }
    expect(loose(modes)).toEqual([]);
    expect(readFileSync(backup).includes(token)).toBe(false);
  });

  it('on a folder an older version left 0755 with 0644 files and a crash’s WAL', async () => {
    loosenModes(dataDir());
    for (const side of ['-wal', '-shm']) {
      writeFileSync(`${tillDbPath(dataDir(), 'sandbox')}${side}`, '');
      chmodSync(`${tillDbPath(dataDir(), 'sandbox')}${side}`, 0o644);
    }
    expect(loose(modesUnder(dataDir())).length).toBeGreaterThan(10);
    const { modes } = await startAndSell(dataDir());
    expect(modesUnder(parent).find((line) => line.endsWith(' data/'))).toBe('0700 data/');
    expect(loose(modes)).toEqual([]);
  });
});
