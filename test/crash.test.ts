import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tillDbPath } from '#main/config/data-files';
import type { BridgeEvent, BridgeResult } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import { startJsonChild, type JsonChild } from '#support/child-json';

const root = resolve(import.meta.dirname, '..');
type First = { controlUrl: string; sale: BridgeResult<SaleView> | null };
const children: JsonChild<First>[] = [];

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop('SIGKILL')));
});

async function till(dataDir: string, saleNaira?: string): Promise<JsonChild<First>> {
  const child = await startJsonChild<First>(
    'test/fixtures/core-child.ts',
    saleNaira ? [dataDir, '--sale', saleNaira] : [dataDir],
    { cwd: root, timeoutMs: 30_000 },
  );
  children.push(child);
  return child;
}

function saleOf(child: JsonChild<First>): SaleView {
  const result = child.first.sale;
  if (!result?.ok) throw new Error(`no sale: ${JSON.stringify(result)}`);
  return result.value;
}

async function control(url: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

function paidEvent(saleId: number) {
  return (line: unknown): line is BridgeEvent =>
    typeof line === 'object' &&
    line !== null &&
    (line as BridgeEvent).type === 'sale-changed' &&
    (line as { payload: SaleView }).payload.id === saleId &&
    (line as { payload: SaleView }).payload.state === 'paid';
}

function readDb(dataDir: string) {
  const db = new Database(tillDbPath(dataDir, 'sandbox'), { readonly: true });
  try {
    return {
      sale: db.prepare('SELECT state, paid_session_id AS paidSessionId FROM sales').get() as {
        state: string;
        paidSessionId: string | null;
      },
      inflows: db
        .prepare('SELECT session_id AS sessionId, amount_kobo AS amountKobo FROM inflows')
        .all(),
      unprocessedCallbacks: (
        db.prepare('SELECT COUNT(*) AS n FROM callback_log WHERE processed_at IS NULL').get() as {
          n: number;
        }
      ).n,
    };
  } finally {
    db.close();
  }
}

describe('crash and restart (SIGKILL mid-sale, a new process on the same data directory)', () => {
  it('a payment made around the crash is confirmed by the next process, once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'till-crash-'));
    const first = await till(dataDir, '1500');
    const sale = saleOf(first);
    expect(sale.state).toBe('awaiting_payment');
    await control(`${first.first.controlUrl}/faults`, { drop_callbacks: 1 });
    const transfer = await control(`${first.first.controlUrl}/transfers`, {
      account_number: sale.accountNumber,
      amount: 1500,
    });
    expect(transfer['status']).toBe('success');
    await first.stop('SIGKILL');
    expect(readDb(dataDir).sale.state).toBe('awaiting_payment');

    const second = await till(dataDir);
    const paid = await second.waitForLine(paidEvent(sale.id));
    expect((paid as { payload: SaleView }).payload.paidSessionId).toBe(transfer['session_id']);
    const after = readDb(dataDir);
    expect(after.sale).toEqual({ state: 'paid', paidSessionId: transfer['session_id'] });
    expect(after.inflows).toEqual([{ sessionId: transfer['session_id'], amountKobo: 150_000 }]);
  });

  it('a callback stored but not yet confirmed when the process dies is confirmed after restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'till-crash-'));
    const first = await till(dataDir, '250');
    const sale = saleOf(first);
    // The provider answers status checks slowly: the confirmation is still in flight when we kill.
    await control(`${first.first.controlUrl}/faults`, { latency_ms: 3_000 });
    const transfer = await control(`${first.first.controlUrl}/transfers`, {
      account_number: sale.accountNumber,
      amount: 250,
    });
    for (let i = 0; ; i++) {
      const log = (await control(`${first.first.controlUrl}/callbacks`)) as {
        callbacks: { attempts: { http_status: number | null }[] }[];
      };
      if (log.callbacks.some((c) => c.attempts.some((a) => a.http_status === 200))) break;
      if (i > 200) throw new Error('the callback was never delivered');
      await new Promise((r) => setTimeout(r, 10));
    }
    await first.stop('SIGKILL');
    const between = readDb(dataDir);
    expect(between.unprocessedCallbacks).toBe(1);
    expect(between.sale.state).toBe('awaiting_payment');

    const second = await till(dataDir);
    await second.waitForLine(paidEvent(sale.id));
    // The stored callback is processed right behind the sale's own resume check.
    for (let i = 0; readDb(dataDir).unprocessedCallbacks > 0 && i < 250; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const after = readDb(dataDir);
    expect(after.unprocessedCallbacks).toBe(0);
    expect(after.sale.paidSessionId).toBe(transfer['session_id']);
    expect(after.inflows).toHaveLength(1);
  });
});
