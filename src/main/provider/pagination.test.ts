import { afterEach, describe, expect, it } from 'vitest';
import { createProviderClient, type ProviderClient } from './client';
import { ProviderError } from './errors';
import { iterateTransactionPages, readAllTransactions } from './pagination';
import { sendJson, startScriptedServer, type ScriptedServer } from '#support/scripted-server';

interface WireRow {
  readonly amount: number;
  readonly status: string;
  readonly session_id: string;
  readonly external_reference: string;
  readonly date: string;
}

function row(n: number): WireRow {
  return {
    amount: 100 + n / 100,
    status: 'success',
    session_id: String(n).padStart(30, '0'),
    external_reference: `TT-${n}`,
    date: '2026-11-22 09:05:00',
  };
}

function rows(from: number, to: number): WireRow[] {
  const list: WireRow[] = [];
  for (let n = from; n <= to; n++) list.push(row(n));
  return list;
}

interface ListingScript {
  /** Rows the server holds, read at each request (may change between requests). */
  readonly data: (requestIndex: number) => readonly unknown[];
  /** `count` to report; default the number of rows. */
  readonly count?: (requestIndex: number, held: number) => number;
  /** Largest page the server returns whatever limit says. */
  readonly clamp?: number;
  readonly ignoreOffset?: boolean;
  /** Answer this HTTP status at this request index. */
  readonly failAt?: { readonly index: number; readonly status: number };
}

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function listing(
  script: ListingScript,
): Promise<{ client: ProviderClient; server: ScriptedServer; offsets: () => number[] }> {
  const server = await startScriptedServer((req, res, index) => {
    if (script.failAt?.index === index) {
      sendJson(res, script.failAt.status, { message: 'no' });
      return;
    }
    const held = script.data(index);
    const offset = script.ignoreOffset ? 0 : Number(req.query.get('offset'));
    const limit = Math.min(Number(req.query.get('limit')), script.clamp ?? Infinity);
    sendJson(res, 200, {
      status: 'success',
      data: {
        count: script.count ? script.count(index, held.length) : held.length,
        transactions: held.slice(offset, offset + limit),
      },
    });
  });
  servers.push(server);
  const client = createProviderClient({
    baseUrl: server.url,
    payoutBaseUrl: server.url,
    secretKey: 'sk_test_pages',
    accessToken: 'tok',
    sleep: () => Promise.resolve(),
  });
  return {
    client,
    server,
    offsets: () => server.requests.map((r) => Number(r.query.get('offset'))),
  };
}

function sessionIds(list: readonly { sessionId: string }[]): string[] {
  return list.map((r) => r.sessionId);
}

/** Row n with its session_id missing: a row the client cannot read. */
function unreadableRow(n: number): Omit<WireRow, 'session_id'> {
  const { session_id: _dropped, ...rest } = row(n);
  return rest;
}

/** Rows from..to, with the rows numbered in `bad` unreadable. */
function rowsWithBad(from: number, to: number, bad: readonly number[]): unknown[] {
  return rows(from, to).map((r, i) => (bad.includes(from + i) ? unreadableRow(from + i) : r));
}

describe('readAllTransactions', () => {
  it('follows section 4.3: offset 0, add limit, stop at count', async () => {
    const all = rows(1, 25);
    const { client, server, offsets } = await listing({ data: () => all });
    const progress: { collected: number; count: number }[] = [];
    const result = await readAllTransactions(client, {
      limit: 10,
      onProgress: (p) => progress.push({ ...p }),
    });
    expect(result).toMatchObject({ count: 25, complete: true, stopReason: 'complete', pages: 3 });
    expect(sessionIds(result.transactions)).toEqual(all.map((r) => r.session_id));
    expect(result.transactions[0]?.amountKobo).toBe(10001);
    expect(offsets()).toEqual([0, 10, 20]);
    expect(server.requests.map((r) => r.query.get('limit'))).toEqual(['10', '10', '10']);
    expect(progress).toEqual([
      { collected: 10, count: 25 },
      { collected: 20, count: 25 },
      { collected: 25, count: 25 },
    ]);
  });

  it('stops on an exact multiple of the limit without an extra request', async () => {
    const { client, offsets } = await listing({ data: () => rows(1, 20) });
    const result = await readAllTransactions(client, { limit: 10 });
    expect(result.complete).toBe(true);
    expect(offsets()).toEqual([0, 10]);
  });

  it('reads an empty listing in one request', async () => {
    const { client, offsets } = await listing({ data: () => [] });
    const result = await readAllTransactions(client, { limit: 10 });
    expect(result).toMatchObject({ count: 0, complete: true, stopReason: 'complete' });
    expect(result.transactions).toHaveLength(0);
    expect(offsets()).toEqual([0]);
  });

  it('stops at an empty page when count claims more rows than exist', async () => {
    const { client, offsets } = await listing({ data: () => rows(1, 25), count: () => 40 });
    const result = await readAllTransactions(client, { limit: 10 });
    expect(result).toMatchObject({ count: 40, complete: false, stopReason: 'empty_page' });
    expect(result.transactions).toHaveLength(25);
    expect(offsets()).toEqual([0, 10, 20, 25]);
  });

  it('stops as soon as count is reached when count claims fewer rows', async () => {
    const { client, offsets } = await listing({ data: () => rows(1, 25), count: () => 5 });
    const result = await readAllTransactions(client, { limit: 10 });
    expect(result).toMatchObject({ count: 5, complete: true, stopReason: 'complete' });
    expect(result.transactions).toHaveLength(10);
    expect(offsets()).toEqual([0]);
  });

  it('drops rows repeated across pages and counts only new ones', async () => {
    // Newest first; a payment arrives after the first page, shifting every row down by one.
    const before = rows(1, 25).reverse();
    const after = [row(26), ...before];
    const { client, offsets } = await listing({ data: (i) => (i === 0 ? before : after) });
    const progress: number[] = [];
    const result = await readAllTransactions(client, {
      limit: 10,
      onProgress: (p) => progress.push(p.collected),
    });
    const ids = sessionIds(result.transactions);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(25);
    expect(ids).toEqual(before.map((r) => r.session_id));
    expect(progress).toEqual([10, 19, 25, 25]);
    // The new row sits before the offset we had read: not complete, and we say so.
    expect(result).toMatchObject({ count: 26, complete: false, stopReason: 'empty_page' });
    expect(offsets()).toEqual([0, 10, 20, 26]);
  });

  it('follows a count that grows while reading (rows appended at the end)', async () => {
    const { client } = await listing({ data: (i) => rows(1, 25 + 3 * i) });
    const result = await readAllTransactions(client, { limit: 10 });
    expect(result.complete).toBe(true);
    expect(result.count).toBe(result.transactions.length);
    expect(new Set(sessionIds(result.transactions)).size).toBe(result.transactions.length);
  });

  it('advances by the rows returned when the server clamps limit', async () => {
    const { client, offsets } = await listing({ data: () => rows(1, 10), clamp: 4 });
    const result = await readAllTransactions(client, { limit: 10 });
    expect(result).toMatchObject({ complete: true, stopReason: 'complete' });
    expect(result.transactions).toHaveLength(10);
    expect(offsets()).toEqual([0, 4, 8]);
  });

  it('stops when the server ignores offset', async () => {
    const { client, server } = await listing({ data: () => rows(1, 25), ignoreOffset: true });
    const result = await readAllTransactions(client, { limit: 10 });
    expect(result).toMatchObject({ complete: false, stopReason: 'no_progress' });
    expect(result.transactions).toHaveLength(10);
    expect(server.requests).toHaveLength(4);
  });

  it('stops on a page budget when count runs away from us', async () => {
    // Every request, 10 more rows appear and count says there are 10 more than we can read.
    const { client, server } = await listing({
      data: (i) => rows(1, 10 * (i + 1)),
      count: (_i, held) => held + 10,
    });
    const result = await readAllTransactions(client, { limit: 10 });
    expect(result).toMatchObject({ complete: false, stopReason: 'page_budget' });
    // First count 20 explains 2 pages (+2 slack); twice that plus 10 is the ceiling.
    expect(server.requests.length).toBeLessThanOrEqual(18);
    expect(server.requests.length).toBeGreaterThan(3);
  });

  it('honours maxPages', async () => {
    const { client, server } = await listing({ data: () => rows(1, 100) });
    const result = await readAllTransactions(client, { limit: 10, maxPages: 2 });
    expect(result).toMatchObject({ complete: false, stopReason: 'page_budget', pages: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it('passes on a provider error from a later page', async () => {
    const { client } = await listing({
      data: () => rows(1, 25),
      failAt: { index: 1, status: 401 },
    });
    await expect(readAllTransactions(client, { limit: 10 })).rejects.toMatchObject({
      code: 'PROVIDER_AUTH_REFUSED',
      operation: 'list',
    });
  });

  it('stops when aborted between pages', async () => {
    const { client, server } = await listing({ data: () => rows(1, 50) });
    const controller = new AbortController();
    const run = readAllTransactions(client, {
      limit: 10,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(run).rejects.toBeInstanceOf(ProviderError);
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a bad limit before sending', async () => {
    const { client, server } = await listing({ data: () => rows(1, 5) });
    await expect(readAllTransactions(client, { limit: 0 })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      field: 'limit',
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe('unreadable rows', () => {
  it('count as returned rows: the offsets advance past them and the read completes', async () => {
    const { client, offsets } = await listing({ data: () => rowsWithBad(1, 25, [4, 15]) });
    const progress: number[] = [];
    const result = await readAllTransactions(client, {
      limit: 10,
      onProgress: (p) => progress.push(p.collected),
    });
    expect(result).toMatchObject({ count: 25, complete: true, stopReason: 'complete', pages: 3 });
    expect(offsets()).toEqual([0, 10, 20]);
    expect(progress).toEqual([10, 20, 25]);
    expect(result.transactions).toHaveLength(23);
    expect(result.unreadable.map((u) => [u.position, u.problem])).toEqual([
      [3, 'session_id: missing'],
      [14, 'session_id: missing'],
    ]);
  });

  it('a page of nothing but unreadable rows is not an empty page', async () => {
    const { client, offsets } = await listing({
      data: () => rowsWithBad(1, 15, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
    });
    const result = await readAllTransactions(client, { limit: 10 });
    expect(result).toMatchObject({ complete: true, stopReason: 'complete' });
    expect(offsets()).toEqual([0, 10]);
    expect(result.transactions).toHaveLength(5);
    expect(result.unreadable).toHaveLength(10);
  });

  it('an unreadable row repeated across shifting pages counts once', async () => {
    // Newest first; a payment arrives after the first page and pushes the bad row (5) onto the
    // second page as well.
    const before = rowsWithBad(1, 12, [3]).reverse();
    const after = [row(13), ...before];
    const { client } = await listing({ data: (i) => (i === 0 ? before : after) });
    const result = await readAllTransactions(client, { limit: 10 });
    expect(result.unreadable).toHaveLength(1);
    expect(result.transactions).toHaveLength(11);
    // 12 unique rows read of the 13 listed: the new one sits before the offsets already read.
    expect(result).toMatchObject({ count: 13, complete: false, stopReason: 'empty_page' });
  });

  it('advances by all rows returned when the server clamps limit', async () => {
    const { client, offsets } = await listing({
      data: () => rowsWithBad(1, 10, [4, 5]),
      clamp: 4,
    });
    const result = await readAllTransactions(client, { limit: 10 });
    expect(result).toMatchObject({ complete: true, stopReason: 'complete' });
    expect(offsets()).toEqual([0, 4, 8]);
    expect(result.unreadable.map((u) => u.position)).toEqual([3, 4]);
  });

  it('gives each readable row its listing offset, and the unreadable rows theirs', async () => {
    const { client } = await listing({ data: () => rowsWithBad(1, 8, [2, 6]) });
    const pages = [];
    for await (const page of iterateTransactionPages(client, { limit: 5, startOffset: 1 })) {
      pages.push(page);
    }
    expect(
      pages.map((p) => ({
        offset: p.offset,
        returned: p.returned,
        positions: p.positions,
        unreadable: p.unreadable.map((u) => u.position),
        newUnreadable: p.newUnreadable.length,
        sessions: p.rows.map((r) => Number(r.sessionId)),
        requestedAt: p.requestedAt,
      })),
    ).toEqual([
      {
        offset: 1,
        returned: 5,
        positions: [2, 3, 4],
        unreadable: [1, 5],
        newUnreadable: 2,
        sessions: [3, 4, 5],
        requestedAt: null,
      },
      {
        offset: 6,
        returned: 2,
        positions: [6, 7],
        unreadable: [],
        newUnreadable: 0,
        sessions: [7, 8],
        requestedAt: null,
      },
    ]);
  });
});

describe('iterateTransactionPages', () => {
  it('starts at startOffset and reports each page', async () => {
    const { client, offsets } = await listing({ data: () => rows(1, 25) });
    const seen: { offset: number; rows: number; stop: string | null }[] = [];
    for await (const page of iterateTransactionPages(client, { limit: 10, startOffset: 10 })) {
      seen.push({ offset: page.offset, rows: page.rows.length, stop: page.stopReason });
    }
    expect(seen).toEqual([
      { offset: 10, rows: 10, stop: null },
      { offset: 20, rows: 5, stop: 'complete' },
    ]);
    expect(offsets()).toEqual([10, 20]);
  });

  it('stops asking when the consumer breaks out', async () => {
    const { client, server } = await listing({ data: () => rows(1, 50) });
    for await (const page of iterateTransactionPages(client, { limit: 10 })) {
      expect(page.offset).toBe(0);
      break;
    }
    expect(server.requests).toHaveLength(1);
  });
});
