/**
 * The browser shell's address lasts (CONTRACTS.md, "The browser shell's address"): real child
 * processes of `npm run web`, a real data directory, real ports.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  chooseShellPort,
  DEFAULT_SHELL_PORT,
  saveShellPort,
  SHELL_PORT_FILE,
} from '#main/web/shell-port';
import { startJsonChild } from '#support/child-json';
import { freePort } from '#support/free-port';
import type { WebShellLine } from '#support/web-till';

const root = resolve(import.meta.dirname, '..');
const dirs: string[] = [];
const holders: Server[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'till-web-address-'));
  dirs.push(dir);
  return dir;
}

/** Holds a port as another program would; resolves false when someone else holds it already. */
async function hold(port: number): Promise<boolean> {
  const server = createServer();
  const held = await new Promise<boolean>((done) => {
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => done(true));
  });
  if (held) holders.push(server);
  return held;
}

/** Runs `npm run web` to its end (it fails at start): exit code, stdout, stderr. */
function runToExit(
  command: string,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, [...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}

afterEach(async () => {
  for (const server of holders.splice(0)) await new Promise((done) => server.close(done));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the port a start chooses', () => {
  it('is --port when given, else the port used last, else 7420', () => {
    const dir = dataDir();
    expect(chooseShellPort(undefined, dir)).toEqual({ port: 7420, source: 'default' });
    expect(DEFAULT_SHELL_PORT).toBe(7420);
    saveShellPort(dir, 41234);
    expect(readFileSync(join(dir, SHELL_PORT_FILE), 'utf8')).toBe('41234\n');
    expect(chooseShellPort(undefined, dir)).toEqual({ port: 41234, source: 'saved' });
    expect(chooseShellPort(0, dir)).toEqual({ port: 0, source: 'flag' });
    expect(chooseShellPort(5000, dir)).toEqual({ port: 5000, source: 'flag' });
  });

  it('falls back to the default when the saved file is not a port', () => {
    const dir = dataDir();
    for (const text of ['', 'abc', '0', '70000', '12x', '-5']) {
      writeFileSync(join(dir, SHELL_PORT_FILE), text);
      expect(chooseShellPort(undefined, dir)).toEqual({ port: 7420, source: 'default' });
    }
  });
});

describe('npm run web keeps its address', () => {
  it('comes back on the same url after a restart without --port', async () => {
    const dir = dataDir();
    const port = await freePort();
    const first = await startJsonChild<WebShellLine>(
      'scripts/web.ts',
      ['--port', String(port), '--data-dir', dir],
      { cwd: root, timeoutMs: 120_000 },
    );
    await first.stop();
    expect(new URL(first.first.url).port).toBe(String(port));
    const again = await startJsonChild<WebShellLine>('scripts/web.ts', ['--data-dir', dir], {
      cwd: root,
      timeoutMs: 120_000,
    });
    try {
      expect(again.first.url).toBe(first.first.url);
      expect(again.first.display_url).toBe(first.first.display_url);
    } finally {
      await again.stop();
    }
  }, 240_000);

  it('says in one line which port is taken and how to choose another, and exits non-zero', async () => {
    const dir = dataDir();
    const port = await freePort();
    saveShellPort(dir, port);
    expect(await hold(port)).toBe(true);
    const result = await runToExit(process.execPath, [
      '--import',
      'tsx',
      'scripts/web.ts',
      '--data-dir',
      dir,
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^transfer-till web: port ${port} \\(the port this till used last\\).*--port`),
    );
  }, 120_000);

  it('on a first start uses 7420, and names it when it is taken', async () => {
    // Held here (or by whatever holds it already): either way the first start cannot have it.
    await hold(DEFAULT_SHELL_PORT);
    const result = await runToExit(process.execPath, [
      '--import',
      'tsx',
      'scripts/web.ts',
      '--data-dir',
      dataDir(),
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim()).toMatch(
      /^transfer-till web: port 7420 \(the first start’s default\) on 127\.0\.0\.1 is taken.*--port <another port>$/,
    );
  }, 120_000);

  it('prints the JSON start line first under npm run --silent web', async () => {
    const dir = dataDir();
    const port = await freePort();
    const child = spawn(
      'npm',
      ['run', '--silent', 'web', '--', '--port', String(port), '--data-dir', dir],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    try {
      const stdout = await new Promise<string>((done, fail) => {
        let text = '';
        const timer = setTimeout(() => fail(new Error(`no start line: ${text}`)), 120_000);
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('\n')) {
            clearTimeout(timer);
            done(text);
          }
        });
      });
      const firstLine = stdout.split('\n')[0] ?? '';
      const parsed = JSON.parse(firstLine) as WebShellLine;
      expect(new URL(parsed.url).port).toBe(String(port));
      expect(typeof parsed.display_url).toBe('string');
    } finally {
      // npm runs the shell as its child: end the whole group this test started.
      const exited = new Promise((done) => child.once('exit', done));
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
  }, 180_000);
});
