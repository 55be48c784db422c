import { afterEach, describe, expect, it } from 'vitest';
import { buildZReport } from '#main/reports/z-report';
import { createGroupCommitInbox } from '#main/store/callback-inbox';
import { createTestDb } from '#support/database';
import { unreadableCallbacks } from '#main/store/unreadable-repo';
import { captureLogger, post } from '#support/webhook-world';
import type { StoredCallback } from './types';
import {
  generateCallbackToken,
  startWebhookListener,
  type WebhookListener,
} from './webhook-listener';

const TOKEN = generateCallbackToken();
const open: WebhookListener[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((listener) => listener.close()));
});

/** The listener as the core runs it: the store's group-commit inbox on a real SQLite file. */
async function start(now: () => number) {
  const { db } = createTestDb();
  const handed: StoredCallback[] = [];
  const listener = await startWebhookListener({
    tokens: () => [TOKEN],
    inbox: createGroupCommitInbox(() => db),
    onCallback: (stored) => handed.push(stored),
    logger: captureLogger().logger,
    now,
  });
  open.push(listener);
  const send = (body: string, headers: Record<string, string>) =>
    post(listener.port, `/callbacks/${TOKEN}`, body, headers);
  return { db, handed, send };
}

interface StoredLogRow {
  readonly body: string;
  readonly content_type: string | null;
  readonly parse_status: string;
  readonly headers: string;
}

describe('a callback body the till cannot read', () => {
  it('is kept as received, answered so the provider knows, counted and shown in the day report', async () => {
    const at = Date.UTC(2026, 10, 22, 9, 0, 0); // 10:00 in Lagos
    const { db, handed, send } = await start(() => at);
    const xml = '<payment><ref>TT-1</ref><amount>1500</amount></payment>';
    const brokenJson = '{"reference": "TT-2", "amount": 15';
    const noIds = JSON.stringify({ event: 'transfer', amount: 1500 });

    expect(
      (await send(xml, { 'content-type': 'application/xml', authorization: 'Basic eA==' })).status,
    ).toBe(415);
    expect((await send(brokenJson, { 'content-type': 'application/json' })).status).toBe(400);
    // Readable, but nothing in it ties it to a sale: answered 200, still counted as unreadable.
    expect((await send(noIds, { 'content-type': 'application/json' })).status).toBe(200);
    // A good one, and an empty ping: neither is an exception.
    const good = JSON.stringify({ reference: 'TT-3', session_id: '1'.repeat(30) });
    expect((await send(good, { 'content-type': 'application/json' })).status).toBe(200);
    expect((await send('', { 'content-type': 'application/json' })).status).toBe(200);

    const rows = db
      .prepare('SELECT body, content_type, parse_status, headers FROM callback_log ORDER BY id')
      .all() as StoredLogRow[];
    expect(rows.map((row) => [row.body, row.parse_status])).toEqual([
      [xml, 'malformed'],
      [brokenJson, 'malformed'],
      [noIds, 'ok'],
      [good, 'ok'],
      ['', 'empty'],
    ]);
    // Kept raw, minus credentials: the sender's Authorization header is never stored.
    expect(rows[0]?.content_type).toBe('application/xml');
    expect(JSON.parse(rows[0]?.headers ?? '{}')).not.toHaveProperty('authorization');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handed.map((c) => c.parseStatus)).toEqual([
      'malformed',
      'malformed',
      'ok',
      'ok',
      'empty',
    ]);

    expect(unreadableCallbacks(db, at, at + 1).reduce((sum, g) => sum + g.count, 0)).toBe(3);
    const report = buildZReport(db, {
      fromDay: '2026-11-22',
      toDay: '2026-11-22',
      cutoffHour: 0,
      timeZone: 'Africa/Lagos',
      now: at + 3_600_000,
    });
    const exception = report.exceptions.find((e) => e.kind === 'unreadable_callbacks');
    expect(exception?.at).toBe(at);
    expect(exception?.message).toMatch(
      /^3 payment notifications \(callbacks\) received in this period could not be read: /,
    );
    expect(exception?.message).toContain('sent as application/xml, not JSON or a form (1)');
    expect(exception?.message).toContain('JSON that could not be parsed (1)');
    expect(exception?.message).toContain(
      'in a shape this till does not recognise (no reference or session id in it) (1)',
    );
  });
});
