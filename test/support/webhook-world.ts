import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { pino, type Logger } from 'pino';
import type { CallbackInbox, RawCallbackRecord } from '#main/webhook/types';

/** Helpers shared by the listener's tests (real HTTP on 127.0.0.1, no mocks of node:http). */

export interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export function post(
  port: number,
  path: string,
  body: string,
  headers: Readonly<Record<string, string>> = { 'content-type': 'application/json' },
  options: { readonly method?: string; readonly agent?: Agent } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'POST',
        headers,
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface RawExchange {
  /** Everything the server sent before closing (or before the deadline). */
  readonly received: string;
  readonly closedByServer: boolean;
  /** Bytes of the request the client managed to hand to the socket. */
  readonly bytesWritten: number;
  readonly elapsedMs: number;
}

/**
 * Speaks raw TCP so the test can send what fetch refuses to: lying lengths, half-sent headers,
 * endless chunked bodies. `write` gets a function that writes (awaiting drain) and reports false
 * once the server has closed the connection.
 */
export function rawExchange(
  port: number,
  write: (send: (data: string | Buffer) => Promise<boolean>) => Promise<void>,
  deadlineMs: number,
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    let closed = false;
    let bytesWritten = 0;
    let finished = false;
    const finish = (closedByServer: boolean): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received, closedByServer, bytesWritten, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), deadlineMs);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => {
      closed = true;
    });
    socket.on('close', () => {
      closed = true;
      finish(true);
    });
    const send = async (data: string | Buffer): Promise<boolean> => {
      if (closed || socket.destroyed) return false;
      const flushed = socket.write(data);
      bytesWritten += Buffer.byteLength(data);
      if (!flushed) {
        await new Promise<void>((done) => {
          const wake = (): void => {
            socket.off('drain', wake);
            socket.off('close', wake);
            done();
          };
          socket.once('drain', wake);
          socket.once('close', wake);
        });
      }
      return !closed;
    };
    socket.once('connect', () => {
      write(send).catch(() => finish(closed));
    });
  });
}

export interface MemoryInbox extends CallbackInbox {
  readonly records: RawCallbackRecord[];
  /** Sequence of 'stored:<id>' entries, shared with the test's own markers. */
  readonly events: string[];
  failNext: number;
}

export function memoryInbox(events: string[] = []): MemoryInbox {
  const records: RawCallbackRecord[] = [];
  const inbox: MemoryInbox = {
    records,
    events,
    failNext: 0,
    store(record) {
      if (inbox.failNext > 0) {
        inbox.failNext -= 1;
        throw new Error('disk full');
      }
      records.push(record);
      events.push(`stored:${records.length}`);
      return { id: records.length };
    },
  };
  return inbox;
}

export function captureLogger(): { readonly logger: Logger; readonly lines: string[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
  return { logger, lines };
}
