/**
 * Shared by the sync, memory and callback benchmarks: a sandbox provider's own SQLite filled
 * directly (one transaction, through its state module: 100,000 transfers through the control
 * API would take minutes and measure the sandbox), and the sandbox started as its own process
 * with its CLI (the provider is another machine).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openSandboxDb } from '#main/sandbox/sandbox-db';
import { insertAccount, saveMerchant } from '#main/sandbox/sandbox-state';

const root = fileURLToPath(new URL('..', import.meta.url));

export const BENCH_MERCHANT = {
  secretKey: 'sk_bench_0123456789',
  accessToken: 'at_bench_0123456789',
  payoutAccountId: '1234567890',
  userId: 1,
  ownerName: 'Bench Merchant',
} as const;

export interface SeedOptions {
  readonly total: number;
  /** Static-flex standing accounts the transfers are spread over. */
  readonly accounts: number;
  /** The first transfer's time; one transfer per second of history after it. */
  readonly startMs?: number;
}

/**
 * Fills the sandbox database at `dbPath` (created or migrated by the sandbox's own schema) with
 * `total` transfers in one transaction; every 20th one failed. Saves the bench merchant unless
 * `keepMerchant` (the file already holds one, e.g. an embedded sandbox's).
 */
export function seedSandboxTransactions(
  dbPath: string,
  options: SeedOptions,
  keepMerchant = false,
): void {
  const db = openSandboxDb(dbPath);
  try {
    if (!keepMerchant) saveMerchant(db, BENCH_MERCHANT);
    const start = options.startMs ?? Date.UTC(2026, 9, 1);
    db.transaction(() => {
      for (let a = 0; a < options.accounts; a++) {
        insertAccount(db, {
          accountNumber: `990000000${a}`,
          reference: `SBX-BENCH-${a}`,
          externalReference: `COUNTER-${a}`,
          accountName: 'Bench',
          merchantId: 'M-1',
          merchantCategory: 'others',
          type: 'static-flex',
          amountKobo: null,
          expiresAtMs: null,
          status: 'active',
          callbackUrl: 'http://127.0.0.1:9/unused',
          createdAtMs: start,
        });
      }
      const insert = db.prepare(
        `INSERT INTO transactions (session_id, account_number, amount_kobo, status, reason,
           created_at_ms, settle_at_ms, settled_at_ms)
         VALUES (?, ?, ?, ?, NULL, ?, NULL, ?)`,
      );
      for (let i = 0; i < options.total; i++) {
        const at = start + i * 1000;
        insert.run(
          `999999${String(i).padStart(24, '0')}`,
          `990000000${i % options.accounts}`,
          100 + ((i * 7919) % 5_000_000),
          i % 20 === 0 ? 'failed' : 'success',
          at,
          at,
        );
      }
    })();
  } finally {
    db.close();
  }
}

export interface SandboxProcess {
  readonly baseUrl: string;
  readonly payoutBaseUrl: string;
  readonly controlUrl: string;
  readonly secretKey: string;
  readonly accessToken: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** The sandbox CLI in its own process; without `dataDir` its database lives in memory. */
export async function startSandboxProcess(dataDir?: string): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'src/main/sandbox/cli.ts'),
      '--port',
      '0',
      ...(dataDir === undefined ? [] : ['--data-dir', dataDir]),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const info = JSON.parse(first) as Record<string, string>;
  return {
    baseUrl: info['base_url'] ?? '',
    payoutBaseUrl: info['payout_base_url'] ?? '',
    controlUrl: info['control_url'] ?? '',
    secretKey: info['secret_key'] ?? '',
    accessToken: info['access_token'] ?? '',
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
