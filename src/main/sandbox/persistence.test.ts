import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openSandboxDb,
  SANDBOX_MIGRATIONS,
  SANDBOX_SCHEMA_VERSION,
  SandboxDbError,
} from './sandbox-db';
import { listDispatches, readServedFaults } from './sandbox-state';
import { startSandboxProvider } from './sandbox-provider';
import {
  accounts,
  balanceValue,
  callbackLog,
  createAccount,
  createRaw,
  faultsSchema,
  http,
  ledger,
  SANDBOX_T0,
  nonstaticBody,
  payout,
  startReceiver,
  startTestSandbox,
  statusOf,
  transfer,
  waitFor,
} from '#support/sandbox-world';
import { ManualScheduler } from '#support/clock';

let dir: string;
let dbPath: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sandbox-provider-'));
  dbPath = path.join(dir, 'sandbox.sqlite');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('openSandboxDb', () => {
  it('opens a file in WAL with synchronous FULL at the current schema version', () => {
    const db = openSandboxDb(dbPath);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('user_version', { simple: true })).toBe(SANDBOX_SCHEMA_VERSION);
    } finally {
      db.close();
    }
  });

  it('refuses a database from a newer version', () => {
    const raw = new Database(dbPath);
    raw.pragma(`user_version = ${SANDBOX_SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openSandboxDb(dbPath)).toThrow(SandboxDbError);
  });

  it('migration 2 adds held-callback columns and served counts to a version 1 database', () => {
    const raw = new Database(dbPath);
    raw.exec(SANDBOX_MIGRATIONS[0] ?? '');
    raw.pragma('user_version = 1');
    raw.exec(`
      INSERT INTO accounts VALUES ('0123456789', 'SBX-1', 'sale-1', 'Shop', 'M1', 'others',
        'static-flex', NULL, NULL, 'active', 'http://127.0.0.1:9/cb', 1000);
      INSERT INTO transactions (session_id, account_number, amount_kobo, status, created_at_ms)
        VALUES ('999999250115090000000000000001', '0123456789', 500, 'success', 1000);
      INSERT INTO callback_dispatches (session_id, cause, state, created_at_ms)
        VALUES ('999999250115090000000000000001', 'payment', 'delivered', 1000);
    `);
    raw.close();

    const db = openSandboxDb(dbPath);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(2);
      expect(listDispatches(db)).toEqual([
        expect.objectContaining({ state: 'delivered', dueAtMs: null, note: null }),
      ]);
      expect(readServedFaults(db)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('is idempotent on reopen', () => {
    openSandboxDb(dbPath).close();
    const db = openSandboxDb(dbPath);
    expect(db.pragma('user_version', { simple: true })).toBe(SANDBOX_SCHEMA_VERSION);
    db.close();
  });
});

describe('a persisted sandbox across close and restart', () => {
  it('keeps credentials, accounts, ledger, balances and reference uniqueness', async () => {
    const clock = new ManualScheduler(SANDBOX_T0);
    const first = (await startTestSandbox({ dbPath }, clock)).sandbox;
    const a = await createAccount(first, nonstaticBody({ amount: 2505 }));
    const paid = await transfer(first, a.account_number, 2505);
    const b = await createAccount(first, nonstaticBody({ amount: 100 }));
    await transfer(first, b.account_number, 99);
    const c = await createAccount(first, nonstaticBody({ amount: 300 }));
    const pending = await transfer(first, c.account_number, 300, 60_000);
    const ledgerBefore = await ledger(first);
    const accountsBefore = await accounts(first);
    await first.close();

    await clock.advance(60_000); // the pending transfer comes due while the sandbox is down
    const second = (await startTestSandbox({ dbPath }, clock)).sandbox;
    try {
      expect(second.secretKey).toBe(first.secretKey);
      expect(second.accessToken).toBe(first.accessToken);
      expect(second.payoutAccountId).toBe(first.payoutAccountId);
      expect(second.secretKey).toMatch(/^sk_sandbox_[0-9a-f]{32}$/);
      expect(second.accessToken).toMatch(/^at_sandbox_[0-9a-f]{32}$/);
      expect(second.payoutAccountId).toMatch(/^\d{10}$/);

      const accountsAfter = await accounts(second);
      const withoutPaid = (list: typeof accountsBefore) => list.map(({ paid: _, ...rest }) => rest);
      expect(withoutPaid(accountsAfter)).toEqual(withoutPaid(accountsBefore));
      // The pending transfer settled at start-up, so the third account is now paid.
      expect(accountsAfter.map((x) => x.paid)).toEqual([true, false, true]);
      const ledgerAfter = await ledger(second);
      expect(ledgerAfter.map((t) => t.session_id)).toEqual(ledgerBefore.map((t) => t.session_id));
      expect(ledgerAfter.map((t) => t.status)).toEqual(['success', 'failed', 'success']);
      expect(ledgerAfter[2]?.session_id).toBe(pending.session_id);

      const status = await statusOf(second, a.external_reference);
      expect(status.status).toBe(200);
      expect(status.text).toContain(paid.session_id);
      expect(balanceValue(await payout(second), 'AvailableBalance')).toBe(250_500 + 30_000);
      expect(
        (await createRaw(second, nonstaticBody({ reference: a.external_reference }))).status,
      ).toBe(409);
    } finally {
      await second.close();
    }
  });

  it('lets options override remembered credentials, and remembers the new ones', async () => {
    const first = await startSandboxProvider({ dbPath });
    await first.close();
    const second = await startSandboxProvider({
      dbPath,
      secretKey: 'sk_sandbox_fixed_for_demo',
      payoutAccountId: '1234567890',
    });
    expect(second.secretKey).toBe('sk_sandbox_fixed_for_demo');
    expect(second.accessToken).toBe(first.accessToken);
    expect(second.payoutAccountId).toBe('1234567890');
    await second.close();
    const third = await startSandboxProvider({ dbPath });
    expect(third.secretKey).toBe('sk_sandbox_fixed_for_demo');
    await third.close();
  });

  it('keeps faults and the fallback URL set through the control API', async () => {
    const first = (await startTestSandbox({ dbPath })).sandbox;
    await http(`${first.controlUrl}/faults`, { body: { count_skew: 2 } });
    await http(`${first.controlUrl}/config`, {
      body: { fallback_callback_url: 'http://127.0.0.1:1/fallback' },
    });
    await first.close();
    const second = (await startTestSandbox({ dbPath })).sandbox;
    try {
      const faults = faultsSchema.parse((await http(`${second.controlUrl}/faults`)).body);
      expect(faults.count_skew).toBe(2);
      expect((await http(`${second.controlUrl}/config`)).body).toEqual({
        fallback_callback_url: 'http://127.0.0.1:1/fallback',
      });
    } finally {
      await second.close();
    }
  });

  it('keeps the served fault counts', async () => {
    const first = (await startTestSandbox({ dbPath })).sandbox;
    await http(`${first.controlUrl}/faults`, { body: { error_rate: 1 } });
    expect((await statusOf(first, 'any')).status).toBeGreaterThanOrEqual(500);
    await first.close();
    const second = (await startTestSandbox({ dbPath })).sandbox;
    try {
      const faults = faultsSchema.parse((await http(`${second.controlUrl}/faults`)).body);
      expect(faults.served.error).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('resumes an unfinished callback delivery after a restart', async () => {
    const r = await startReceiver([500]);
    try {
      const first = (await startTestSandbox({ dbPath, callbackRetryDelaysMs: [60_000] })).sandbox;
      const account = await createAccount(first, nonstaticBody({ amount: 5, callback_url: r.url }));
      await transfer(first, account.account_number, 5);
      await waitFor(() => (r.received.length === 1 ? true : undefined), 'first (500) attempt');
      // The receiver's answer reaches the sandbox's log a moment after the receiver saw the body:
      // close only once the 500 is recorded, so the restart truly resumes mid-backoff.
      await waitFor(async () => {
        const entries = await callbackLog(first);
        return entries[0]?.attempts.length === 1 ? true : undefined;
      }, 'first attempt recorded');
      await first.close(); // mid-backoff: the delivery stays pending

      const second = (await startTestSandbox({ dbPath })).sandbox;
      try {
        await waitFor(() => (r.received.length === 2 ? true : undefined), 'resumed delivery');
        const log = await waitFor(async () => {
          const entries = await callbackLog(second);
          return entries[0]?.state === 'delivered' ? entries : undefined;
        }, 'delivered');
        expect(log).toHaveLength(1);
        expect(log[0]?.attempts.map((x) => x.http_status)).toEqual([500, 200]);
      } finally {
        await second.close();
      }
    } finally {
      await r.close();
    }
  });
});
