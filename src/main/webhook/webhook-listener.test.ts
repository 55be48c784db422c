import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  captureLogger,
  memoryInbox,
  post,
  rawExchange,
  type MemoryInbox,
} from '#support/webhook-world';
import { openSqliteTestInbox } from '#support/sqlite-inbox';
import type { StoredCallback } from './types';
import {
  generateCallbackToken,
  startWebhookListener,
  WebhookListenerError,
  type WebhookListener,
  type WebhookListenerOptions,
} from './webhook-listener';

const TOKEN = generateCallbackToken();
const SESSION = '100004260101123456789012345678';
const PAYLOAD = JSON.stringify({
  reference: 'sale-42',
  session_id: SESSION,
  amount: 1500,
  status: 'success',
});

const open: WebhookListener[] = [];
const tempDirs: string[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((listener) => listener.close()));
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'till-webhook-'));
  tempDirs.push(dir);
  return join(dir, name);
}

interface Harness {
  readonly listener: WebhookListener;
  readonly inbox: MemoryInbox;
  readonly callbacks: StoredCallback[];
  readonly events: string[];
  readonly lines: string[];
  readonly path: string;
}

async function start(overrides: Partial<WebhookListenerOptions> = {}): Promise<Harness> {
  const events: string[] = [];
  const inbox = memoryInbox(events);
  const callbacks: StoredCallback[] = [];
  const { logger, lines } = captureLogger();
  const listener = await startWebhookListener({
    tokens: () => [TOKEN],
    inbox,
    onCallback: (stored) => {
      callbacks.push(stored);
      events.push(`onCallback:${stored.id}`);
    },
    logger,
    ...overrides,
  });
  open.push(listener);
  return { listener, inbox, callbacks, events, lines, path: `/callbacks/${TOKEN}` };
}

/** setImmediate callbacks have run once a timer of 20 ms has fired. */
function settle(ms = 20): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('webhook listener: the happy path', () => {
  it('stores the raw callback, answers 200, then hands the hint to the engine', async () => {
    const h = await start();
    const answer = await post(h.listener.port, h.path, PAYLOAD);
    h.events.push('answered');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ ok: true });
    await settle();
    expect(h.inbox.records).toHaveLength(1);
    const record = h.inbox.records[0];
    expect(record).toMatchObject({
      method: 'POST',
      path: '/callbacks/:token',
      contentType: 'application/json',
      body: PAYLOAD,
      parseStatus: 'ok',
      hint: { reference: 'sale-42', sessionId: SESSION, amountKobo: 150000, status: 'success' },
      remoteAddress: '127.0.0.1',
    });
    expect(h.callbacks).toEqual([{ id: 1, hint: record?.hint, parseStatus: 'ok' }]);
    expect(h.events[0]).toBe('stored:1');
    expect(h.events).toContain('onCallback:1');
  });

  it('answers every 200 with the same JSON body and headers, on one kept-alive connection', async () => {
    const h = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const i of [1, 2]) {
        const answer = await post(
          h.listener.port,
          h.path,
          JSON.stringify({ reference: `sale-${i}` }),
          { 'content-type': 'application/json' },
          { agent },
        );
        expect(answer.status).toBe(200);
        expect(answer.body).toBe('{"ok":true}');
        expect(answer.headers).toMatchObject({
          'content-type': 'application/json; charset=utf-8',
          'content-length': '11',
          'cache-control': 'no-store',
        });
        expect(answer.headers.connection).toBe('keep-alive');
      }
    } finally {
      agent.destroy();
    }
    expect(h.inbox.records.map((record) => record.hint?.reference)).toEqual(['sale-1', 'sale-2']);
  });

  it('stores an empty POST (a provider ping) as empty and answers 200', async () => {
    const h = await start();
    const answer = await post(h.listener.port, h.path, '', {});
    expect(answer.status).toBe(200);
    expect(h.inbox.records[0]).toMatchObject({ parseStatus: 'empty', hint: null, body: '' });
  });

  it('keeps the query string in the stored path but never the token', async () => {
    const h = await start();
    await post(h.listener.port, `${h.path}?source=prv&echo=${TOKEN}`, PAYLOAD);
    expect(h.inbox.records[0]?.path).toBe('/callbacks/:token?source=prv&echo=:token');
  });

  it('accepts every token in the rotation list and builds the path from the newest', async () => {
    const previous = generateCallbackToken();
    const h = await start({ tokens: () => [TOKEN, previous] });
    expect(h.listener.callbackPath()).toBe(`/callbacks/${TOKEN}`);
    expect((await post(h.listener.port, `/callbacks/${previous}`, PAYLOAD)).status).toBe(200);
    expect((await post(h.listener.port, `/callbacks/${TOKEN}`, PAYLOAD)).status).toBe(200);
    expect(h.inbox.records).toHaveLength(2);
  });

  it('ignores configured tokens that are too short and says so from callbackPath()', async () => {
    const h = await start({ tokens: () => ['short-token-1234567'] });
    expect((await post(h.listener.port, '/callbacks/short-token-1234567', PAYLOAD)).status).toBe(
      404,
    );
    expect(() => h.listener.callbackPath()).toThrowError(WebhookListenerError);
    expect(h.inbox.records).toHaveLength(0);
  });

  it('binds to 127.0.0.1 only', async () => {
    const h = await start();
    const reachedOnIpv6 = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '::1', port: h.listener.port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    expect(reachedOnIpv6).toBe(false);
  });
});

describe('webhook listener: what is stored and logged', () => {
  it('drops secret headers, scrubs the token from header values and uses the proxy address', async () => {
    const h = await start();
    await post(h.listener.port, h.path, PAYLOAD, {
      'content-type': 'application/json',
      authorization: 'Bearer sk_live_abcdef123456',
      'proxy-authorization': 'Basic dXNlcjpwYXNz',
      cookie: 'session=abc123secret',
      'x-api-key': 'key-1234567890',
      secretKey: 'sk_test_0987654321',
      'x-callback-token': 'tok-555555',
      referer: `https://shop.ngrok.app/callbacks/${TOKEN}`,
      'x-forwarded-for': '10.9.8.7, 41.58.1.2',
      'user-agent': 'provider-hook/1.0',
    });
    const record = h.inbox.records[0];
    expect(record?.headers).toMatchObject({
      referer: 'https://shop.ngrok.app/callbacks/:token',
      'user-agent': 'provider-hook/1.0',
    });
    // What the record says elsewhere (its content type, its body's length) or what described
    // only the hop to the tunnel is not kept twice.
    expect(record?.contentType).toBe('application/json');
    for (const name of ['content-type', 'content-length', 'connection']) {
      expect(record?.headers).not.toHaveProperty(name);
    }
    for (const name of [
      'authorization',
      'proxy-authorization',
      'cookie',
      'x-api-key',
      'secretkey',
      'x-callback-token',
    ]) {
      expect(record?.headers).not.toHaveProperty(name);
    }
    const stored = JSON.stringify(h.inbox.records);
    for (const secret of [
      TOKEN,
      'sk_live_abcdef123456',
      'dXNlcjpwYXNz',
      'abc123secret',
      'key-1234567890',
      'sk_test_0987654321',
      'tok-555555',
    ]) {
      expect(stored).not.toContain(secret);
    }
    // The last X-Forwarded-For entry is the one the tunnel agent appended; the first is forgeable.
    expect(record?.remoteAddress).toBe('41.58.1.2');
    expect(h.lines.join('\n')).not.toContain(TOKEN);
  });
});

describe('webhook listener: hardening', () => {
  it('answers 404 with the same empty response for a wrong token, a wrong path or a short token', async () => {
    const h = await start();
    const port = h.listener.port;
    const probes = [
      `/callbacks/${generateCallbackToken()}`,
      `/callbacks/${TOKEN.slice(0, -1)}`,
      `/callbacks/${TOKEN}/`,
      `/callbacks/${TOKEN}x`,
      '/callbacks/abc',
      '/callbacks/',
      '/',
      '/admin',
      `/CALLBACKS/${TOKEN}`,
      `//callbacks/${TOKEN}`,
    ];
    const answers = await Promise.all(probes.map((path) => post(port, path, PAYLOAD)));
    const shapes = answers.map((a) => {
      const { date: _date, ...headers } = a.headers;
      return { status: a.status, headers, body: a.body };
    });
    expect(shapes[0]).toEqual({
      status: 404,
      headers: { 'content-length': '0', 'cache-control': 'no-store', connection: 'close' },
      body: '',
    });
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    // A GET to a wrong path is also a 404 (not a 405, which would confirm the path exists).
    expect((await post(port, '/nope', '', {}, { method: 'GET' })).status).toBe(404);
    expect(h.inbox.records).toHaveLength(0);
    expect(h.callbacks).toHaveLength(0);
  });

  it('answers 405 with Allow: POST for other methods on the callback path', async () => {
    const h = await start();
    for (const method of ['GET', 'PUT', 'DELETE', 'HEAD']) {
      const answer = await post(h.listener.port, h.path, '', {}, { method });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('POST');
    }
    expect(h.inbox.records).toHaveLength(0);
  });

  it('answers 413 at once to a declared oversize body without waiting for it', async () => {
    const h = await start();
    const exchange = await rawExchange(
      h.listener.port,
      async (send) => {
        // Headers only: if the server waited for the body it would never answer.
        await send(
          `POST ${h.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n`,
        );
      },
      2_000,
    );
    expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(1_000);
    expect(h.inbox.records).toHaveLength(0);
  });

  it('does not invite an oversize body with 100 Continue, but does invite a good one', async () => {
    const h = await start();
    const refused = await rawExchange(
      h.listener.port,
      async (send) => {
        await send(
          `POST ${h.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n`,
        );
      },
      2_000,
    );
    expect(refused.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(refused.received).not.toContain('100 Continue');

    const accepted = await rawExchange(
      h.listener.port,
      async (send) => {
        await send(
          `POST ${h.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(PAYLOAD)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
        await send(PAYLOAD);
      },
      2_000,
    );
    expect(accepted.received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(h.inbox.records).toHaveLength(1);
  });

  it('cuts off a chunked body that grows past 64 KiB and never reads the rest', async () => {
    const h = await start();
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const frame = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n'),
    ]);
    const total = 32 * 1024 * 1024;
    const exchange = await rawExchange(
      h.listener.port,
      async (send) => {
        await send(
          `POST ${h.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        for (let sent = 0; sent < total; sent += chunk.length) {
          if (!(await send(frame))) return;
        }
      },
      10_000,
    );
    expect(exchange.closedByServer).toBe(true);
    // 32 MiB could not have gone anywhere but into the server: it stopped reading long before.
    expect(exchange.bytesWritten).toBeLessThan(total / 2);
    if (exchange.received !== '') expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(h.inbox.records).toHaveLength(0);
    expect(h.lines.join('\n')).toContain('body too large (streamed)');
  });

  it('never buffers past a lying Content-Length: the extra bytes are not part of the body', async () => {
    const h = await start();
    const exchange = await rawExchange(
      h.listener.port,
      async (send) => {
        // Claims 20 bytes, then sends 200 KiB: only the declared 20 can ever be the body.
        await send(
          `POST ${h.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n`,
        );
        const junk = Buffer.alloc(8 * 1024, '{');
        for (let i = 0; i < 25; i += 1) if (!(await send(junk))) return;
      },
      3_000,
    );
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.received).toMatch(/^HTTP\/1\.1 400 /);
    expect(h.inbox.records.length).toBeLessThanOrEqual(1);
    for (const record of h.inbox.records) expect(record.body.length).toBe(20);
  });

  it('answers 415 to an unsupported content type, and keeps the attempt as malformed', async () => {
    const h = await start();
    const answer = await post(h.listener.port, h.path, PAYLOAD, { 'content-type': 'text/plain' });
    expect(answer.status).toBe(415);
    expect(h.inbox.records[0]).toMatchObject({
      parseStatus: 'malformed',
      hint: null,
      body: PAYLOAD,
    });
    const noType = await post(h.listener.port, h.path, 'session_id=1', {});
    expect(noType.status).toBe(415);
  });

  it('accepts JSON without a content type and form bodies with a charset', async () => {
    const h = await start();
    expect((await post(h.listener.port, h.path, PAYLOAD, {})).status).toBe(200);
    const form = await post(h.listener.port, h.path, `session_id=${SESSION}&amount=10`, {
      'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
    });
    expect(form.status).toBe(200);
    expect(h.inbox.records[1]?.hint).toEqual({ sessionId: SESSION, amountKobo: 1000 });
  });

  it('answers 400 to malformed JSON, still stores it and still tells the engine', async () => {
    const h = await start();
    const answer = await post(h.listener.port, h.path, '{"session_id": "1', {
      'content-type': 'application/json',
    });
    expect(answer.status).toBe(400);
    await settle();
    expect(h.inbox.records[0]).toMatchObject({
      parseStatus: 'malformed',
      body: '{"session_id": "1',
    });
    expect(h.callbacks).toEqual([{ id: 1, hint: null, parseStatus: 'malformed' }]);
  });

  it('answers 429 past the per-address limit, per sender address, until the window rolls', async () => {
    let clock = 1_000_000;
    const h = await start({ rateLimit: { perAddressPerMinute: 3 }, now: () => clock });
    const from = (address: string) => ({
      'content-type': 'application/json',
      'x-forwarded-for': address,
    });
    for (let i = 0; i < 3; i += 1) {
      expect((await post(h.listener.port, h.path, PAYLOAD, from('41.1.1.1'))).status).toBe(200);
    }
    const limited = await post(h.listener.port, h.path, PAYLOAD, from('41.1.1.1'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Probing wrong paths counts too: token guessing is throttled.
    expect(
      (await post(h.listener.port, '/callbacks/guess', PAYLOAD, from('41.1.1.1'))).status,
    ).toBe(429);
    expect((await post(h.listener.port, h.path, PAYLOAD, from('41.2.2.2'))).status).toBe(200);
    clock += 60_000;
    expect((await post(h.listener.port, h.path, PAYLOAD, from('41.1.1.1'))).status).toBe(200);
    expect(h.inbox.records).toHaveLength(5);
  });

  it('answers 503 when the inbox cannot store, so the provider retries; the retry lands', async () => {
    const h = await start();
    h.inbox.failNext = 1;
    const failed = await post(h.listener.port, h.path, PAYLOAD);
    expect(failed.status).toBe(503);
    expect(failed.headers['retry-after']).toBe('5');
    await settle();
    expect(h.callbacks).toHaveLength(0);
    expect(h.lines.join('\n')).toContain('could not store callback');
    expect((await post(h.listener.port, h.path, PAYLOAD)).status).toBe(200);
    expect(h.inbox.records).toHaveLength(1);
  });

  it('closes a client that is slow to send its headers', async () => {
    const h = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const exchange = await rawExchange(
      h.listener.port,
      async (send) => {
        await send(`POST ${h.path} HTTP/1.1\r\nHost: x\r\n`);
        // …and the rest of the headers never come.
      },
      3_000,
    );
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(2_000);
    expect(h.inbox.records).toHaveLength(0);
  });

  it('closes a client that is slow to send its body', async () => {
    const h = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const exchange = await rawExchange(
      h.listener.port,
      async (send) => {
        await send(
          `POST ${h.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`,
        );
        for (let i = 0; i < 20; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          if (!(await send(' '))) return;
        }
      },
      3_000,
    );
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(2_000);
    expect(h.inbox.records).toHaveLength(0);
  });

  it('closes a kept-alive connection left idle after its answer', async () => {
    const h = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const exchange = await rawExchange(
      h.listener.port,
      async (send) => {
        await send(
          `POST ${h.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(PAYLOAD)}\r\n\r\n${PAYLOAD}`,
        );
        // …and then nothing more on the kept-alive connection.
      },
      3_000,
    );
    expect(exchange.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(exchange.received).toMatch(/keep-alive/i);
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(2_000);
    expect(h.inbox.records).toHaveLength(1);
  });

  it('closes an idle connection that never sends anything', async () => {
    const h = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const exchange = await rawExchange(h.listener.port, () => Promise.resolve(), 3_000);
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(2_000);
  });
});

describe('webhook listener: answer first, confirm after', () => {
  it('answers only after the record is stored, even when storing is slow', async () => {
    const events: string[] = [];
    const inbox = memoryInbox(events);
    const slowInbox = {
      store: (record: Parameters<typeof inbox.store>[0]) => {
        const until = Date.now() + 150;
        while (Date.now() < until) {
          // A slow disk: the answer must still wait for the write.
        }
        return inbox.store(record);
      },
    };
    const h = await start({ inbox: slowInbox });
    const started = Date.now();
    const answer = await post(h.listener.port, h.path, PAYLOAD);
    events.push('answered');
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(events.slice(0, 2)).toEqual(['stored:1', 'answered']);
  });

  it('does not let a slow or failing onCallback delay the answer or break the listener', async () => {
    let calls = 0;
    const h = await start({
      onCallback: () => {
        calls += 1;
        if (calls > 1) return;
        const until = Date.now() + 800;
        while (Date.now() < until) {
          // The engine hogging the event loop after the answer has gone out.
        }
        throw new Error('engine exploded');
      },
    });
    // The client runs in another process so that its clock keeps running while ours is blocked.
    const client = spawn(
      process.execPath,
      [
        '-e',
        `const t = Date.now();
         fetch(process.argv[1], { method: 'POST', headers: { 'content-type': 'application/json' }, body: process.argv[2] })
           .then((r) => console.log(JSON.stringify({ status: r.status, ms: Date.now() - t })));`,
        `http://127.0.0.1:${h.listener.port}${h.path}`,
        PAYLOAD,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    client.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => client.once('exit', resolve));
    const result = JSON.parse(out) as { status: number; ms: number };
    expect(result.status).toBe(200);
    expect(result.ms).toBeLessThan(400);
    expect(calls).toBe(1);
    expect(h.lines.join('\n')).toContain('onCallback failed');
    expect((await post(h.listener.port, h.path, PAYLOAD)).status).toBe(200);
  });

  it('100 copies of one callback in parallel: 100 stored, 100 handed on, one session id', async () => {
    const h = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 100 });
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        post(h.listener.port, h.path, PAYLOAD, undefined, { agent }),
      ),
    );
    agent.destroy();
    await settle();
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(h.inbox.records).toHaveLength(100);
    expect(h.callbacks).toHaveLength(100);
    expect(new Set(h.callbacks.map((c) => c.id)).size).toBe(100);
    expect(new Set(h.callbacks.map((c) => c.hint?.sessionId))).toEqual(new Set([SESSION]));
  });
});

describe('webhook listener: durability with a real SQLite inbox', () => {
  it('keeps the stored callback across closing and reopening the file', async () => {
    const file = tempFile('inbox.sqlite');
    const inbox = openSqliteTestInbox(file);
    const h = await start({ inbox });
    expect((await post(h.listener.port, h.path, PAYLOAD)).status).toBe(200);
    await h.listener.close();
    inbox.close();

    const reopened = openSqliteTestInbox(file);
    expect(reopened.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(reopened.all()).toMatchObject([
      {
        id: 1,
        path: '/callbacks/:token',
        body: PAYLOAD,
        parseStatus: 'ok',
        hint: { sessionId: SESSION },
      },
    ]);
    reopened.close();
  });

  it('a callback answered 200 survives the process being killed right after', async () => {
    const file = tempFile('inbox.sqlite');
    const fixture = fileURLToPath(
      new URL('../../../test/fixtures/listener-crash-child.ts', import.meta.url),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, file, TOKEN], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const line = out.split('\n')[0];
          if (out.includes('\n') && line) resolve((JSON.parse(line) as { port: number }).port);
        });
        child.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
      });
      expect((await post(port, `/callbacks/${TOKEN}`, PAYLOAD)).status).toBe(200);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    const reopened = openSqliteTestInbox(file);
    expect(reopened.all().map((row) => row.hint?.sessionId)).toEqual([SESSION]);
    reopened.close();
  });
});
