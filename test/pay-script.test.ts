// `npm run pay` and `npm run web-info` (scripts/pay.ts, scripts/web-info.ts) as a person runs them:
// real child processes, a real sandbox over HTTP, a real data directory holding the start line.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '#main/sandbox';
import { START_LINE_FILE, writeStartLine } from '#main/web/start-line-file';
import { createAccount, ledger, nonstaticBody } from '#support/sandbox-world';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');

async function script(
  name: 'pay' | 'web-info',
  args: readonly string[],
  dataDir: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', `scripts/${name}.ts`, ...args],
      { cwd: root, env: { ...process.env, TRANSFER_TILL_DATA_DIR: dataDir } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let sandbox: SandboxProvider;
let dataDir: string;
const emptyDir = mkdtempSync(join(tmpdir(), 'till-pay-empty-'));

beforeAll(async () => {
  sandbox = await startSandboxProvider({ port: 0 });
  dataDir = mkdtempSync(join(tmpdir(), 'till-pay-'));
  writeStartLine(dataDir, {
    url: 'http://127.0.0.1:1/#token=abc',
    display_url: 'http://127.0.0.1:1/#/display&display=def',
    control_url: sandbox.controlUrl,
  });
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
});

describe('npm run pay', () => {
  it('pays the account on the sandbox named by the start line, exactly once', async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 1500.5 }));
    const result = await script('pay', [account.account_number, '1,500.50'], dataDir);
    expect(result.stderr).not.toContain('transfer-till pay');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`₦1,500.50 sent to ${account.account_number}`);
    const rows = (await ledger(sandbox)).filter(
      (row) => row.account_number === account.account_number,
    );
    expect(rows.map((row) => [row.status, row.amount])).toEqual([['success', 1500.5]]);
  });

  it('takes the number as the till shows it, with spaces or dashes, the amount last', async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 1500 }));
    const digits = account.account_number;
    const spaced = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
    const result = await script('pay', [...spaced, '1500'], dataDir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`₦1,500.00 sent to ${digits}`);
    const second = await createAccount(sandbox, nonstaticBody({ amount: 700 }));
    const n = second.account_number;
    const dashed = `${n.slice(0, 3)}-${n.slice(3, 6)}-${n.slice(6)}`;
    expect((await script('pay', [dashed, '700'], dataDir)).code).toBe(0);
    const paid = (await ledger(sandbox)).filter((row) => [digits, n].includes(row.account_number));
    expect(paid.map((row) => [row.account_number, row.status])).toEqual([
      [digits, 'success'],
      [n, 'success'],
    ]);
  });

  it("passes the sandbox's refusal on, and a wrong amount's failed status", async () => {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 1000 }));
    const wrong = await script('pay', [account.account_number, '900'], dataDir);
    expect(wrong.code).toBe(0);
    expect(wrong.stdout).toContain('the bank answered "failed"');
    const unknown = await script('pay', ['0000000001', '900'], dataDir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/The sandbox refused the transfer \(404\)/);
  });

  it('refuses a bad command line with the usage, and sends nothing', async () => {
    const before = (await ledger(sandbox)).length;
    for (const args of [
      [],
      ['100'],
      ['12345', '100'],
      ['012', '345', '678', '100'],
      ['0123456789', 'lots'],
      ['0123456789', '0'],
    ]) {
      const result = await script('pay', args, dataDir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('usage: npm run pay');
    }
    expect((await ledger(sandbox)).length).toBe(before);
  });

  it('says to start the till when no browser shell ever ran with the data directory', async () => {
    const result = await script('pay', ['0123456789', '100'], emptyDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Start the till with `npm run web` first');
  });

  it('says the till is not on the sandbox when the start line has no control_url', async () => {
    const live = mkdtempSync(join(tmpdir(), 'till-pay-live-'));
    try {
      writeStartLine(live, { url: 'http://127.0.0.1:1/#token=a', display_url: 'http://x/' });
      const result = await script('pay', ['0123456789', '100'], live);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('not on the sandbox provider');
    } finally {
      rmSync(live, { recursive: true, force: true });
    }
  });
});

describe('npm run web-info', () => {
  it('prints the start line, or one key of it', async () => {
    const whole = await script('web-info', [], dataDir);
    expect(whole.code).toBe(0);
    expect(JSON.parse(whole.stdout)).toMatchObject({ control_url: sandbox.controlUrl });
    const one = await script('web-info', ['control_url'], dataDir);
    expect(one.stdout).toBe(`${sandbox.controlUrl}\n`);
    const missing = await script('web-info', ['lan_url'], dataDir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('the start line has no "lan_url"');
  });

  it('keeps the start line readable only by its owner, and refuses a damaged one', async () => {
    expect(statSync(join(dataDir, START_LINE_FILE)).mode & 0o777).toBe(0o600);
    const damaged = mkdtempSync(join(tmpdir(), 'till-pay-damaged-'));
    try {
      writeFileSync(join(damaged, START_LINE_FILE), '{"url":');
      const result = await script('web-info', ['url'], damaged);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('is not JSON');
    } finally {
      rmSync(damaged, { recursive: true, force: true });
    }
  });
});
