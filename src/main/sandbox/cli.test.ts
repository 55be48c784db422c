import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SANDBOX_DB_FILE } from '#main/config/data-files';
import { CliUsageError, parseCliArgs } from './cli-args';
import { createdSchema, http, nonstaticBody } from '#support/sandbox-world';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const CLI = path.join(ROOT, 'src', 'main', 'sandbox', 'cli.ts');

const firstLineSchema = z.strictObject({
  base_url: z.string().url(),
  payout_base_url: z.string().url(),
  secret_key: z.string(),
  access_token: z.string(),
  payout_account_id: z.string().regex(/^\d{10}$/),
  control_url: z.string().url(),
});

interface Child {
  readonly process: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | null>;
}

const children: Child[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.process.exitCode === null) child.process.kill('SIGKILL');
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function run(args: readonly string[]): Child {
  const proc = spawn(TSX, [CLI, ...args], { cwd: ROOT, stdio: 'pipe' });
  const child: Child = {
    process: proc,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => proc.once('exit', (code) => resolve(code))),
  };
  proc.stdout.on('data', (chunk: Buffer) => (child.stdout += chunk.toString()));
  proc.stderr.on('data', (chunk: Buffer) => (child.stderr += chunk.toString()));
  children.push(child);
  return child;
}

async function waitForText(child: Child, text: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!child.stdout.includes(text)) {
    if (Date.now() > deadline) throw new Error(`no "${text}" in: ${child.stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function firstLine(child: Child): Promise<string> {
  let exited = false;
  void child.exited.then(() => (exited = true));
  for (;;) {
    const newline = child.stdout.indexOf('\n');
    if (newline >= 0) return child.stdout.slice(0, newline);
    if (exited) throw new Error(`exited before a line: ${child.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('cli', () => {
  it('prints the JSON line first, serves requests, keeps state in --data-dir, stops on SIGTERM', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-cli-'));
    dirs.push(dir);
    const dataDir = path.join(dir, 'nested', 'data');
    const child = run([
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--secret-key',
      'sk_sandbox_cli_test',
    ]);
    const info = firstLineSchema.parse(JSON.parse(await firstLine(child)));
    expect(info.secret_key).toBe('sk_sandbox_cli_test');
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);

    const created = await http(`${info.base_url}/virtual/new-account`, {
      headers: { secretKey: info.secret_key },
      body: nonstaticBody(),
    });
    expect(created.status).toBe(200);
    expect(createdSchema.parse(created.body).data.Bank).toBe('Sandbox Bank');
    expect(existsSync(path.join(dataDir, SANDBOX_DB_FILE))).toBe(true);

    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    expect(child.stdout).toContain('shutting down');
  });

  it('exits 2 with a clear message for a bad flag, printing nothing on stdout', async () => {
    const child = run(['--port', 'eighty']);
    expect(await child.exited).toBe(2);
    expect(child.stderr).toContain('--port must be an integer');
    expect(child.stdout).toBe('');
  });

  it('--personality sets readings at start, served through the control API', async () => {
    const child = run([
      '--port',
      '0',
      '--personality',
      'failed_status=404,callbacks=late',
      '--personality',
      'bad_row_every=3',
    ]);
    const info = firstLineSchema.parse(JSON.parse(await firstLine(child)));
    const personality = await http(`${info.control_url}/personality`);
    expect(personality.body).toMatchObject({
      failed_status: '404',
      callbacks: 'late',
      bad_row_every: 3,
      listing_order: 'oldest_first',
    });
    await waitForText(child, 'personality: failed_status=404,callbacks=late,');
    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
  });

  it('exits 2 on a bad --personality, naming the key and the values it allows', async () => {
    const child = run(['--personality', 'failed_status=500']);
    expect(await child.exited).toBe(2);
    expect(child.stderr).toContain(
      '--personality failed_status: must be one of "200", "404", "409" (got "500")',
    );
    expect(child.stdout).toBe('');
  });

  it('exits 1 when the port is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = blocker.address() as AddressInfo;
      const child = run(['--port', String(port)]);
      expect(await child.exited).toBe(1);
      expect(child.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(child.stdout).toBe('');
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

describe('parseCliArgs', () => {
  it('parses every flag', () => {
    expect(
      parseCliArgs([
        '--port',
        '4010',
        '--data-dir',
        '/tmp/x',
        '--secret-key',
        'sk_1',
        '--access-token',
        'at_1',
        '--payout-account',
        '0123456789',
        '--fallback-callback-url',
        'http://127.0.0.1:5000/fb',
        '--seed',
        '9',
      ]),
    ).toEqual({
      port: 4010,
      dataDir: '/tmp/x',
      secretKey: 'sk_1',
      accessToken: 'at_1',
      payoutAccountId: '0123456789',
      fallbackCallbackUrl: 'http://127.0.0.1:5000/fb',
      seed: 9,
      help: false,
    });
    expect(parseCliArgs([]).port).toBe(0);
    expect(parseCliArgs([])).not.toHaveProperty('personality');
  });

  it('merges repeated --personality flags, a later one winning', () => {
    expect(
      parseCliArgs([
        '--personality',
        'listing_order=shuffled,expired_payments=accept',
        '--personality',
        'listing_order=newest_first,callback_delay_ms=5000',
      ]).personality,
    ).toEqual({
      listing_order: 'newest_first',
      expired_payments: 'accept',
      callback_delay_ms: 5000,
    });
  });

  it.each([
    [['--port', '70000']],
    [['--port', '-1']],
    [['--payout-account', '123']],
    [['--fallback-callback-url', 'nope']],
    [['--unknown']],
    [['positional']],
    [['--secret-key', ' ']],
    [['--port']],
    [['--personality', 'callbacks']],
    [['--personality', 'callbacks=sometimes']],
    [['--personality', 'colour=red']],
    [['--personality', 'bad_row_every=-2']],
  ])('refuses %j', (argv) => {
    expect(() => parseCliArgs(argv)).toThrow(CliUsageError);
  });
});
